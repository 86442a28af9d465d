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
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pure restore decisions: which epoch, which objects, and which faults are refused. */
class LineagePlannerTest {
    static final String SCOPE = "C:1";
    final LineageKeys keys = new LineageKeys(SCOPE);
    final List<String> listed = new ArrayList<>();

    String l0(long e, long min, long max) {
        String k = keys.segment(e, SegmentKind.L0, min, max, max * 1000);
        listed.add(k);
        return k;
    }

    String l1(long e, long min, long max) {
        String k = keys.segment(e, SegmentKind.L1, min, max, max * 1000);
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
        long tip = LineagePlanner.tip(SCOPE, l, below, PinRule.REFUSE);
        assertThat(tip).isEqualTo(base.epoch());
        return LineagePlanner.plan(SCOPE, l, tip, base);
    }

    static List<String> keysOf(RestorePlan p) {
        return p.segments().stream().map(ObjectKey::key).toList();
    }

    @Test
    void theNewestPinnedEpochBelowTheBoundWinsAndNewerEpochsAreIgnored() {
        pin(1);
        l0(1, 1, 3);
        pin(2);
        String b = l0(2, 4, 4);
        pin(4);      // e4 is not below the bound 4
        l0(4, 5, 5);
        RestorePlan p = plan(4, new BaseRecord(SCOPE, 2, at(1, 3), null, List.of(new Span(1, 0, 3))));
        assertThat(keysOf(p)).containsExactly(keys.segment(1, SegmentKind.L0, 1, 3, 3000), b);
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

    @Test
    void dataAboveTheNewestPinIsRefusedNotPassedOver() {
        pin(1);
        l0(1, 1, 3);
        l0(2, 4, 4); // e2's pin is gone: its writes may have been acknowledged
        l0(3, 5, 5);
        LineageListing l = LineageListing.of(keys, listed);
        assertThatThrownBy(() -> LineagePlanner.tip(SCOPE, l, 4, PinRule.REFUSE)).isInstanceOf(RestoreException.class)
                .hasMessageContaining("cell C:1: activation refused")
                .hasMessageContaining("e2 holds 1 object but its pin " + keys.base(2) + " is missing")
                .hasMessageContaining("e3 holds 1 object").hasMessageContaining("e1 is the newest pinned epoch");
        assertThat(LineagePlanner.tip(SCOPE, l, 2, PinRule.REFUSE)).as("a restore below e2 never reads e2 or e3").isEqualTo(1);
        assertThat(LineagePlanner.tip(SCOPE, l, 4, PinRule.BROKEN_RESTORE_IGNORES_UNPINNED_DATA)).as("the broken variant").isEqualTo(1);
    }

    @Test
    void dataWithoutAnyPinIsRefusedNotRestoredAsAnEmptyDatabase() {
        l0(1, 1, 1);
        listed.add(keys.snapshotManifest(3, 1));
        LineageListing l = LineageListing.of(keys, listed);
        assertThatThrownBy(() -> LineagePlanner.tip(SCOPE, l, 5, PinRule.REFUSE))
                .hasMessageContaining("no epoch below e5 is pinned").hasMessageContaining("restoring an empty database");
        assertThat(LineagePlanner.tip(SCOPE, LineageListing.of(keys, List.of()), 5, PinRule.REFUSE)).as("a new cell").isEqualTo(-1);
    }

    @Test
    void olderEpochsWhosePinsWereCollectedAreReadThroughTheNewestPin() {
        l0(1, 1, 3);  // pins of e1 and e2 collected by e3's garbage collection
        l0(2, 4, 4);
        pin(3);
        RestorePlan p = plan(4, new BaseRecord(SCOPE, 3, at(2, 4), null, List.of(new Span(1, 0, 3), new Span(2, 3, 4))));
        assertThat(p.endTxid()).isEqualTo(4);
    }

    @Test
    void theCollectionKeepsDataWithoutAPinBetweenTheTipsParentAndTheTip() {
        l0(1, 1, 3);
        pin(1);
        l0(2, 4, 4);  // e2 lost its pin; e3 was restored from e1 by a broken restore
        pin(3);
        l0(3, 4, 5);
        RestorePlan p = plan(4, new BaseRecord(SCOPE, 3, at(1, 3), null, List.of(new Span(1, 0, 3))));
        LineageListing l = LineageListing.of(keys, listed);
        Optional<String> refusal = LineagePlanner.gcRefusal(SCOPE, l, p, Set.of(), PinRule.REFUSE);
        assertThat(refusal).hasValueSatisfying(r -> assertThat(r).contains("e2 holds 1 object but its pin").contains("between e1"));
        assertThat(LineagePlanner.gcRefusal(SCOPE, l, p, Set.of(2L), PinRule.REFUSE)).as("e2's pin deleted by this collector").isEmpty();
        assertThat(LineagePlanner.gcRefusal(SCOPE, l, p, Set.of(), PinRule.BROKEN_EVERYWHERE)).as("the broken variant").isEmpty();
        assertThat(LineagePlanner.gcRefusal(SCOPE, l, p, Set.of(), PinRule.BROKEN_RESTORE_IGNORES_UNPINNED_DATA)).isPresent();
    }

    @Test
    void theCollectionPlacesUnpinnedDataBelowTheTipsParentAndStaleOwnersWithAPin() {
        l0(1, 1, 3);  // read through the spans, its pin collected
        l0(2, 9, 9);  // a stale owner's late write below the parent: garbage
        pin(3);
        l0(3, 4, 4);
        pin(4);       // e4 pinned after e5 restored (a stale owner): placed by its pin
        l0(4, 5, 5);
        pin(5);
        RestorePlan p = plan(6, new BaseRecord(SCOPE, 5, at(3, 4), null, List.of(new Span(1, 0, 3), new Span(3, 3, 4))));
        assertThat(LineagePlanner.gcRefusal(SCOPE, LineageListing.of(keys, listed), p, Set.of(), PinRule.REFUSE)).isEmpty();
    }
}
