package dev.cellgate.replicator.wal.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.replicator.wal.format.BaseRecord;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.ObjectKey;
import dev.cellgate.replicator.wal.format.Position;
import dev.cellgate.replicator.wal.format.SegmentKind;
import dev.cellgate.replicator.wal.format.SnapshotRef;
import dev.cellgate.replicator.wal.format.Span;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pure restore decisions: which epoch, which objects, and which faults are refused. */
class LineagePlannerTest {
    static final String SCOPE = "C:1";
    final LineageKeys keys = new LineageKeys(SCOPE);
    final List<String> listed = new ArrayList<>();

    String l0(long e, long min, long max) {
        String k = keys.segment(e, SegmentKind.L0, min, max);
        listed.add(k);
        return k;
    }

    String l1(long e, long min, long max) {
        String k = keys.segment(e, SegmentKind.L1, min, max);
        listed.add(k);
        return k;
    }

    void pin(long e) {
        listed.add(keys.base(e));
    }

    static Position at(long epoch, long txid) {
        return new Position(epoch, txid, txid * 31, 2, 4096);
    }

    RestorePlan plan(long below, BaseRecord base) {
        LineageListing l = LineageListing.of(keys, listed);
        long tip = l.newestPinnedBelow(below);
        assertThat(tip).isEqualTo(base.epoch());
        return LineagePlanner.plan(SCOPE, l, tip, base);
    }

    static List<String> keysOf(RestorePlan p) {
        return p.segments().stream().map(ObjectKey::key).toList();
    }

    @Test
    void theNewestPinnedEpochBelowTheBoundWinsAndUnpinnedOrNewerEpochsAreIgnored() {
        pin(1);
        l0(1, 1, 3);
        pin(2);
        String b = l0(2, 4, 4);
        l0(3, 5, 5); // e3 attached but never pinned: nothing of it was acknowledged
        pin(4);      // e4 is not below the bound 4
        RestorePlan p = plan(4, new BaseRecord(SCOPE, 2, at(1, 3), null, List.of(new Span(1, 0, 3))));
        assertThat(keysOf(p)).containsExactly(keys.segment(1, SegmentKind.L0, 1, 3), b);
        assertThat(p.endTxid()).isEqualTo(4);
    }

    @Test
    void aStaleOwnersSegmentsPastThePinAreNotPartOfTheLineage() {
        pin(1);
        String a1 = l0(1, 1, 2);
        l0(1, 3, 3);          // written by the stale owner of e1 after e2 pinned at txid 2
        l1(1, 1, 3);          // and a late compaction across the pin
        pin(2);
        String b1 = l0(2, 3, 5);
        RestorePlan p = plan(3, new BaseRecord(SCOPE, 2, at(1, 2), null, List.of(new Span(1, 0, 2))));
        assertThat(keysOf(p)).containsExactly(a1, b1);
    }

    @Test
    void aCompactionIsPreferredOverTheSegmentsItCovers() {
        pin(1);
        l0(1, 1, 1);
        l0(1, 2, 2);
        String c = l1(1, 1, 2);
        String tail = l0(1, 3, 3);
        RestorePlan p = plan(2, new BaseRecord(SCOPE, 1, Position.empty(), null, List.of()));
        assertThat(keysOf(p)).containsExactly(c, tail);
    }

    @Test
    void aGapInsideAPinnedPartNamesTheMissingTransactions() {
        pin(1);
        l0(1, 1, 2);
        l0(1, 5, 6);
        pin(2);
        BaseRecord base = new BaseRecord(SCOPE, 2, at(1, 6), null, List.of(new Span(1, 0, 6)));
        assertThatThrownBy(() -> plan(3, base)).isInstanceOf(RestoreException.class)
                .hasMessageContaining("cell C:1").hasMessageContaining("lineage gap in e1: txids 3..4 are missing");
    }

    @Test
    void aMissingTailOfAPinnedPartIsAGapToo() {
        pin(1);
        l0(1, 1, 2);
        pin(2);
        BaseRecord base = new BaseRecord(SCOPE, 2, at(1, 4), null, List.of(new Span(1, 0, 4)));
        assertThatThrownBy(() -> plan(3, base)).hasMessageContaining("txids 3..4 are missing");
    }

    @Test
    void aGapInTheNewestEpochIsAGap() {
        pin(1);
        l0(1, 1, 1);
        l0(1, 3, 3);
        assertThatThrownBy(() -> plan(2, new BaseRecord(SCOPE, 1, Position.empty(), null, List.of())))
                .hasMessageContaining("txids 2..2 are missing");
    }

    @Test
    void theTipsOwnSnapshotStartsTheRestoreAndOlderDataIsNotRead() {
        pin(1);
        l0(1, 1, 5);
        pin(2);
        l0(2, 6, 8);
        listed.add(keys.snapshotManifest(2, 8));
        String after = l0(2, 9, 9);
        RestorePlan p = plan(3, new BaseRecord(SCOPE, 2, at(1, 5), null, List.of(new Span(1, 0, 5))));
        assertThat(p.snapshot()).isEqualTo(new SnapshotRef(2, 8));
        assertThat(keysOf(p)).containsExactly(after);
        assertThat(p.pinCheckTxid()).isEqualTo(-1);
    }

    @Test
    void aSnapshotThePinNamesMustExist() {
        pin(3);
        BaseRecord base = new BaseRecord(SCOPE, 3, at(2, 9), new SnapshotRef(1, 9), List.of());
        assertThatThrownBy(() -> plan(4, base)).hasMessageContaining("snapshot of e1 at txid 9, which is missing");
    }
}
