package dev.cellgate.replicator.wal.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.PitrHistory;
import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.replicator.wal.format.BaseRecord;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.ObjectKey;
import dev.cellgate.replicator.wal.format.Position;
import dev.cellgate.replicator.wal.format.SegmentKind;
import dev.cellgate.replicator.wal.format.Span;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pure planning of point-in-time restores and of what retention keeps. */
class PointInTimePlanTest {
    static final String SCOPE = "C:1";
    final LineageKeys keys = new LineageKeys(SCOPE);
    final List<String> listed = new ArrayList<>();

    String seg(SegmentKind kind, long e, long min, long max, long time) {
        String k = keys.segment(e, kind, min, max, time);
        listed.add(k);
        return k;
    }

    static Position at(long epoch, long txid) {
        return new Position(epoch, txid, txid * 31, 2, 4096);
    }

    LineageListing listing() {
        return LineageListing.of(keys, listed);
    }

    static List<String> keysOf(RestorePlan p) {
        return p.segments().stream().map(ObjectKey::key).toList();
    }

    @Test
    void keysNameTheirTimeAndOldKeysStillParse() {
        ObjectKey timed = keys.parse(keys.segment(3, SegmentKind.L0, 4, 9, 1_760_000_000_000L));
        assertThat(timed.timed()).isTrue();
        assertThat(timed.timeMs()).isEqualTo(1_760_000_000_000L);
        assertThat(timed.minTxid()).isEqualTo(4);
        ObjectKey old = keys.parse(keys.legacySegment(3, SegmentKind.L1, 4, 9));
        assertThat(old.timed()).isFalse();
        assertThat(old.maxTxid()).isEqualTo(9);
        assertThat(keys.parse(keys.root() + "e0000000000000003/l0/0000000000000004-0000000000000009-8000000000000000.seg")).isNull();
    }

    @Test
    void aPlanToAPointStopsThereAndUsesOnlyWhatLiesBeforeIt() {
        listed.add(keys.base(1));
        String a = seg(SegmentKind.L0, 1, 1, 3, 10);
        String b = seg(SegmentKind.L0, 1, 4, 5, 20);
        seg(SegmentKind.L0, 1, 6, 8, 30);
        String l1 = seg(SegmentKind.L1, 1, 1, 5, 20);
        seg(SegmentKind.L1, 1, 4, 8, 30); // reaches past the point: useless for it
        BaseRecord pin = new BaseRecord(SCOPE, 1, Position.empty(), null, List.of());
        assertThat(keysOf(LineagePlanner.planTo(SCOPE, listing(), 1, pin, 5))).containsExactly(l1);
        assertThat(keysOf(LineagePlanner.planTo(SCOPE, listing(), 1, pin, 3))).containsExactly(a);
        assertThat(LineagePlanner.planTo(SCOPE, listing(), 1, pin, 0).empty()).isTrue();
        listed.remove(l1);
        assertThat(keysOf(LineagePlanner.planTo(SCOPE, listing(), 1, pin, 5))).containsExactly(a, b);
        assertThatThrownBy(() -> LineagePlanner.planTo(SCOPE, listing(), 1, pin, 4))
                .isInstanceOf(RestoreException.class).hasMessageContaining("e1@4 cannot be rebuilt");
        assertThatThrownBy(() -> LineagePlanner.planTo(SCOPE, listing(), 1, pin, 9))
                .hasMessageContaining("e1@9 cannot be rebuilt");
    }

    @Test
    void aPlanToAPointOfALaterEpochFollowsItsPinAndItsOwnSnapshotBeforeThePoint() {
        listed.add(keys.base(1));
        String a = seg(SegmentKind.L0, 1, 1, 3, 10);
        listed.add(keys.base(2));
        String b = seg(SegmentKind.L0, 2, 4, 6, 20);
        listed.add(keys.snapshotManifest(2, 6));
        String c = seg(SegmentKind.L0, 2, 7, 9, 30);
        listed.add(keys.snapshotManifest(2, 9));
        BaseRecord pin2 = new BaseRecord(SCOPE, 2, at(1, 3), null, List.of(new Span(1, 0, 3)));
        RestorePlan to5 = LineagePlanner.planTo(SCOPE, listing(), 2, pin2, 6);
        assertThat(to5.snapshot().txid()).isEqualTo(6);
        assertThat(keysOf(to5)).isEmpty();
        RestorePlan to3 = LineagePlanner.planTo(SCOPE, listing(), 2, pin2, 3);
        assertThat(keysOf(to3)).containsExactly(a);
        assertThat(to3.snapshot()).isNull();
        assertThat(keysOf(LineagePlanner.planTo(SCOPE, listing(), 2, pin2, 9))).isEmpty();
        assertThatThrownBy(() -> LineagePlanner.planTo(SCOPE, listing(), 2, pin2, 2)).hasMessageContaining("before the start of e2");
        assertThat(b).isNotNull();
        assertThat(c).isNotNull();
    }

    @Test
    void retentionKeepsWhatARestoreToTheWindowsFirstStateReadsAndEverythingLater() {
        listed.add(keys.base(1));
        String old1 = seg(SegmentKind.L0, 1, 1, 3, 10);
        String old2 = seg(SegmentKind.L0, 1, 4, 5, 20);
        String oldSnap = keys.snapshotManifest(1, 3);
        listed.add(oldSnap);
        String in1 = seg(SegmentKind.L0, 1, 6, 8, 100);
        String in2 = seg(SegmentKind.L0, 1, 9, 9, 110);
        String l1 = seg(SegmentKind.L1, 1, 6, 9, 110);
        BaseRecord pin = new BaseRecord(SCOPE, 1, Position.empty(), null, List.of());
        LineageListing l = listing();
        long floor = PitrHistory.floors(CommitHistory.of(l), 50).get(1L);
        assertThat(floor).isEqualTo(5);
        RetentionKeep keep = new RetentionKeep();
        keep.keepFrom(SCOPE, l, 1, pin, floor);
        // the state at txid 5 (made before the window) restores from the snapshot at 3 and 4..5;
        // 1..3 is covered by the snapshot and goes
        assertThat(keep.keys()).contains(oldSnap, old2, in1, in2, l1, keys.base(1)).doesNotContain(old1);
        assertThat(keep.keeps(keys.parse(keys.snapshotChunk(1, 3, 1)))).isTrue();
        assertThat(keep.keeps(keys.parse(keys.snapshotChunk(1, 2, 1)))).isFalse();
    }
}
