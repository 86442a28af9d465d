package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.LocalCopy.AfterRefusal;
import dev.cellgate.core.logic.LocalCopy.Source;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class LocalCopyTest {

    @Test
    void aCopyClosedAtTheEpochTheAcquireReplacedIsReused() {
        // this node preserved (or released) the cell at epoch 7 and nobody took it since: the acquire moved 7 -> 8
        assertThat(LocalCopy.source(OptionalLong.of(7), 7, true)).isEqualTo(Source.REUSE_LOCAL);
        assertThat(LocalCopy.source(OptionalLong.of(7), 7, false)).as("without replication too").isEqualTo(Source.REUSE_LOCAL);
    }

    @Test
    void aCopySomeoneElseWroteAfterIsRestoredOver() {
        // another node held epoch 8 after this node closed its copy at 7: the bucket is ahead of the copy
        assertThat(LocalCopy.source(OptionalLong.of(7), 8, true)).isEqualTo(Source.RESTORE);
        // the marker is newer than the record replaced (a released write that did not land, then a takeover)
        assertThat(LocalCopy.source(OptionalLong.of(9), 8, true)).isEqualTo(Source.RESTORE);
    }

    @Test
    void aCopyNotClosedCleanlyIsNeverReused() {
        // no marker: the process crashed with the copy open, or the copy is from before a wipe
        assertThat(LocalCopy.source(OptionalLong.empty(), 7, true)).isEqualTo(Source.RESTORE);
    }

    @Test
    void aCellWithoutAnOwnershipRecordHasNoLineageToReuse() {
        // epoch 0 is "no record": a stray marker of 0 proves nothing
        assertThat(LocalCopy.source(OptionalLong.of(0), 0, true)).isEqualTo(Source.RESTORE);
        assertThat(LocalCopy.source(OptionalLong.empty(), 0, false)).isEqualTo(Source.EMPTY);
    }

    @Test
    void withoutReplicationThereIsNothingToRestoreFrom() {
        assertThat(LocalCopy.source(OptionalLong.of(3), 5, false)).isEqualTo(Source.EMPTY);
    }

    @Test
    void onlyAKeptCopyFallsBackToARestoreWhenTheReplicatorRefusesIt() {
        assertThat(LocalCopy.afterAttachRefused(Source.REUSE_LOCAL)).isEqualTo(AfterRefusal.RESTORE);
        assertThat(LocalCopy.afterAttachRefused(Source.RESTORE)).as("a restore refused again would loop").isEqualTo(AfterRefusal.FAIL);
        assertThat(LocalCopy.afterAttachRefused(Source.EMPTY)).isEqualTo(AfterRefusal.FAIL);
    }
}
