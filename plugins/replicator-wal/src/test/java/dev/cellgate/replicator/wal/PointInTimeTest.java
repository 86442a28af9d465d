package dev.cellgate.replicator.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.Bookmark;
import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.ObjectKey;
import dev.cellgate.replicator.wal.replica.WalCellReplica;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Point-in-time recovery over the real file bucket: bookmarks for a time, restores to them, undo, retention. */
class PointInTimeTest extends WithFixture {
    static final long START = 1_760_000_000_000L;
    static final long DAY = 86_400_000L;
    final AtomicLong clock = new AtomicLong(START);

    WalReplicator pitr(WalPolicy policy, long retentionMs) {
        return fx.replicator(policy, 64L << 20, retentionMs, clock::get);
    }

    static void put(CellHarness h, int v) throws Exception {
        h.sql("INSERT OR REPLACE INTO t (k, v) VALUES (1, " + v + ")").get(30, TimeUnit.SECONDS);
    }

    Bookmark at(WalReplicator r, long t) throws Exception {
        return r.bookmarkForTime(Fixture.SCOPE, t).get(30, TimeUnit.SECONDS);
    }

    @Test
    void aRestoreStartsANewLineageAtTheBookmarkAndTheUndoneHistoryStaysRestorable() throws Exception {
        WalReplicator r = pitr(Fixture.policy(), 30 * DAY);
        CellHarness a = fx.activate(r, fx.bucket, "node-a");
        a.sql("CREATE TABLE t (k INTEGER PRIMARY KEY, v INTEGER)").get(30, TimeUnit.SECONDS);
        for (int v = 1; v <= 3; v++) {
            clock.set(START + v * 1000L);
            put(a, v);
        }
        List<String> atThree = a.dump();
        Bookmark two = at(r, START + 2500);
        assertThat(two.epoch()).isEqualTo(1);
        a.close();

        clock.set(START + 10_000);
        CellHarness b = fx.activateAt(r, "node-b", two);
        assertThat(b.dump()).contains("t:1|2|").hasSize(2);
        put(b, 20);
        b.close();

        // the next owner follows the new lineage (v=2, then 20), not epoch 1's later write
        clock.set(START + 20_000);
        CellHarness c = fx.activate(r, fx.bucket, "node-c");
        assertThat(c.dump()).contains("t:1|20|").hasSize(2);
        c.close();

        // undo: the state before the restore is still there, and a restore to it is a lineage again
        Bookmark three = at(r, START + 5000);
        assertThat(three).isEqualTo(new Bookmark(START + 5000, 1, three.txid()));
        CellHarness d = fx.activateAt(r, "node-d", three);
        assertThat(d.dump()).isEqualTo(atThree);
        put(d, 30);
        d.close();
        CellHarness e = fx.activate(r, fx.bucket, "node-e");
        assertThat(e.dump()).contains("t:1|30|").hasSize(2);
        // and the restored lineage's own state (epoch 2 wrote 20) is a bookmark of its own
        assertThat(at(r, START + 15_000).epoch()).isEqualTo(2);
    }

    @Test
    void aBookmarkOfTheCurrentStateRestoresItAlsoBeforeTheEpochWroteAnything() throws Exception {
        WalReplicator r = pitr(Fixture.policy(), 30 * DAY);
        CellHarness a = fx.activate(r, fx.bucket, "node-a");
        a.sql("CREATE TABLE t (k INTEGER PRIMARY KEY, v INTEGER)").get(30, TimeUnit.SECONDS);
        put(a, 1);
        a.close();
        CellHarness b = fx.activate(r, fx.bucket, "node-b");
        Bookmark current = b.replica().currentBookmark(clock.get());
        assertThat(current.epoch()).isEqualTo(2);
        put(b, 2);
        b.close();
        CellHarness c = fx.activateAt(r, "node-c", current);
        assertThat(c.dump()).contains("t:1|1|").hasSize(2);
    }

    @Test
    void whatCannotBeRestoredIsRefusedByName() throws Exception {
        WalReplicator r = pitr(Fixture.policy(), DAY);
        CellHarness a = fx.activate(r, fx.bucket, "node-a");
        a.sql("CREATE TABLE t (k INTEGER PRIMARY KEY, v INTEGER)").get(30, TimeUnit.SECONDS);
        put(a, 1);
        a.close();
        Path db = fx.db("x");
        assertThatThrownBy(() -> r.restoreTo(Fixture.SCOPE, 5, db, new Bookmark(START, 1, 99)).get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(RestoreException.class)
                .hasMessageContaining("e1@99 cannot be rebuilt");
        assertThatThrownBy(() -> r.restoreTo(Fixture.SCOPE, 5, db, new Bookmark(START, 3, 1)).get(30, TimeUnit.SECONDS))
                .hasMessageContaining("e3 has no pin");
        assertThatThrownBy(() -> r.restoreTo(Fixture.SCOPE, 5, db, new Bookmark(START - 2 * DAY, 1, 1)).get(30, TimeUnit.SECONDS))
                .hasMessageContaining("older than the retention window");
        assertThatThrownBy(() -> at(r, START - 2 * DAY)).hasMessageContaining("before the retention window");
        WalReplicator off = pitr(Fixture.policy(), 0);
        assertThatThrownBy(() -> at(off, START)).hasMessageContaining("CELLD_PITR_DAYS=0");
        assertThat(db.toFile()).doesNotExist();
        // the check a restore request makes before it is recorded says the same, and reads no data
        assertThatThrownBy(() -> r.checkRestorable(Fixture.SCOPE, new Bookmark(START, 1, 99)).get(30, TimeUnit.SECONDS))
                .hasMessageContaining("e1@99 cannot be rebuilt");
        assertThatThrownBy(() -> off.checkRestorable(Fixture.SCOPE, new Bookmark(START, 1, 2)).get(30, TimeUnit.SECONDS))
                .hasMessageContaining("CELLD_PITR_DAYS=0");
        r.checkRestorable(Fixture.SCOPE, new Bookmark(START, 1, 2)).get(30, TimeUnit.SECONDS);
    }

    @Test
    void bucketsWrittenBeforeKeysNamedTheirTimeStillRestore() throws Exception {
        WalReplicator r = pitr(Fixture.policy(), 30 * DAY);
        CellHarness a = fx.activate(r, fx.bucket, "node-a");
        a.sql("CREATE TABLE t (k INTEGER PRIMARY KEY, v INTEGER)").get(30, TimeUnit.SECONDS);
        for (int v = 1; v <= 5; v++) {
            put(a, v);
        }
        List<String> live = a.dump();
        a.close();
        // rewrite every segment under the key format of before: <min>-<max>.seg
        LineageKeys keys = new LineageKeys(Fixture.SCOPE);
        int moved = 0;
        for (String k : fx.lineageKeys()) {
            ObjectKey o = keys.parse(k);
            if (o.isSegment()) {
                assertThat(o.timed()).isTrue();
                byte[] bytes = fx.bucket.get(k).get(30, TimeUnit.SECONDS).orElseThrow().bytes();
                String legacy = keys.legacySegment(o.epoch(), o.type() == ObjectKey.Type.L0
                        ? dev.cellgate.replicator.wal.format.SegmentKind.L0 : dev.cellgate.replicator.wal.format.SegmentKind.L1,
                        o.minTxid(), o.maxTxid());
                fx.bucket.putIfAbsent(legacy, bytes).get(30, TimeUnit.SECONDS);
                fx.bucket.delete(k).get(30, TimeUnit.SECONDS);
                moved++;
            }
        }
        assertThat(moved).isGreaterThanOrEqualTo(6);
        CellHarness b = fx.activate(r, fx.bucket, "node-b");
        assertThat(b.dump()).isEqualTo(live);
        // old segments name no time: no bookmark points into them (the state "then" is the empty database)
        assertThat(at(r, clock.get()).isEmpty()).isTrue();
        put(b, 6);
        assertThat(at(r, clock.get()).epoch()).isEqualTo(2);
    }

    @Test
    void retentionKeepsEveryStateInTheWindowRestorableAndCollectsOlderHistory() throws Exception {
        WalPolicy small = SnapshotTest.SMALL;
        long window = 100_000;
        WalReplicator r = fx.replicator(small, 16 * 1024, window, clock::get);
        CellHarness a = fx.activate(r, fx.bucket, "node-a");
        a.sql("CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB)").get(30, TimeUnit.SECONDS);
        TreeMap<Long, List<String>> states = new TreeMap<>();
        java.util.Random rnd = new java.util.Random(5);
        for (int i = 0; i < 240; i++) {
            clock.addAndGet(1000);
            byte[] blob = new byte[1500];
            rnd.nextBytes(blob);
            int k = rnd.nextInt(50);
            a.tx(c -> {
                try (var ps = c.prepareStatement("INSERT OR REPLACE INTO t (k, v) VALUES (?, ?)")) {
                    ps.setInt(1, k);
                    ps.setBytes(2, blob);
                    ps.executeUpdate();
                }
            }).get(30, TimeUnit.SECONDS);
            states.put(clock.get(), a.dump());
            if (i % 40 == 39) {
                ((WalCellReplica) a.replica()).maintenanceIdle().get(60, TimeUnit.SECONDS);
            }
        }
        ((WalCellReplica) a.replica()).maintenanceIdle().get(60, TimeUnit.SECONDS);
        assertThat(a.replica().stats().snapshots()).isGreaterThanOrEqualTo(3);
        long windowStart = clock.get() - window;
        int n = 0;
        for (long t : List.of(windowStart, windowStart + 1, windowStart + 33_500, clock.get() - 2500, clock.get())) {
            Bookmark b = at(r, t);
            Path into = fx.db("check-" + n++);
            r.restoreTo(Fixture.SCOPE, Long.MAX_VALUE, into, b).get(60, TimeUnit.SECONDS);
            Map.Entry<Long, List<String>> then = states.floorEntry(t);
            assertThat(CellHarness.dumpFile(into)).as("state at %d", t).isEqualTo(then.getValue());
        }
        // of the 110 segments written well before the window (the last collection ran a few seconds before the end),
        // only what a restore to the window's first state needs is left
        LineageKeys keys = new LineageKeys(Fixture.SCOPE);
        long oldSegments = fx.lineageKeys().stream().map(keys::parse)
                .filter(o -> o.isSegment() && o.timeMs() < windowStart - 30_000).count();
        assertThat(oldSegments).isLessThan(small.maxRestoreSegments() + small.l1EveryL0() + 2);
        long inWindow = fx.lineageKeys().stream().map(keys::parse)
                .filter(o -> o.type() == ObjectKey.Type.L0 && o.timeMs() >= windowStart).count();
        assertThat(inWindow).as("every l0 inside the window stays (each ends a state a bookmark names)").isEqualTo(101);
    }
}
