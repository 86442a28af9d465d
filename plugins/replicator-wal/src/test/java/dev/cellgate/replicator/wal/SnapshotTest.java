package dev.cellgate.replicator.wal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.replication.RestoreResult;
import dev.cellgate.replicator.wal.replica.WalCellReplica;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Snapshots and compaction keep a restore to a bounded number of objects; GC keeps the bucket bounded too. */
class SnapshotTest extends WithFixture {
    static final WalPolicy SMALL = Fixture.policy().withL1EveryL0(4).withMaxRestoreSegments(8).withChunkBytes(65536)
            .withCheckpointWalBytes(32 * 1024);

    @Test
    void restoreReadsABoundedNumberOfObjectsWhateverTheHistoryLength() throws Exception {
        WalReplicator r = fx.replicator(fx.bucket, SMALL, 256 * 1024);
        CellHarness a = fx.activate(r, fx.bucket, "node-a");
        a.sql("CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB)").get(30, TimeUnit.SECONDS);

        int[] objects = new int[3];
        int[] keys = new int[3];
        Random rnd = new Random(7);
        for (int phase = 0; phase < 3; phase++) {
            for (int i = 0; i < 150; i++) {
                write(a, rnd, rnd.nextInt(400), 1500);
            }
            ((WalCellReplica) a.replica()).maintenanceIdle().get(60, TimeUnit.SECONDS);
            List<String> live = a.dump();
            Path into = fx.db("check-" + phase);
            RestoreResult res = r.restore(Fixture.SCOPE, Long.MAX_VALUE, into).get(60, TimeUnit.SECONDS);
            assertThat(CellHarness.dumpFile(into)).isEqualTo(live);
            objects[phase] = res.objectsRead();
            keys[phase] = fx.lineageKeys().size();
        }
        assertThat(a.replica().stats().snapshots()).isGreaterThanOrEqualTo(2);
        // 450 transactions, yet a restore reads about as much as after 150: snapshot + a few segments
        int bound = 1 + chunks(a) + SMALL.maxRestoreSegments() + SMALL.l1EveryL0();
        for (int phase = 0; phase < 3; phase++) {
            assertThat(objects[phase]).as("objects read after phase %d", phase).isLessThanOrEqualTo(bound);
            assertThat(keys[phase]).as("lineage keys in the bucket after phase %d", phase).isLessThanOrEqualTo(bound + 2);
        }
    }

    @Test
    void snapshotsAcrossManyTakeoversRestoreIdenticallyAndCollectOldEpochs() throws Exception {
        WalReplicator r = fx.replicator(fx.bucket, SMALL, 128 * 1024);
        Random rnd = new Random(11);
        List<String> live = null;
        for (int round = 0; round < 8; round++) {
            CellHarness h = fx.activate(r, fx.bucket, "node-" + (round % 2));
            if (round == 0) {
                h.sql("CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB)").get(30, TimeUnit.SECONDS);
            }
            for (int i = 0; i < 40; i++) {
                write(h, rnd, rnd.nextInt(300), 2000);
            }
            ((WalCellReplica) h.replica()).maintenanceIdle().get(60, TimeUnit.SECONDS);
            live = h.dump();
            h.close();
        }
        long epoch = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "reader");
        RestoreResult res = r.restore(Fixture.SCOPE, epoch, fx.db("reader")).get(60, TimeUnit.SECONDS);
        assertThat(CellHarness.dumpFile(fx.db("reader"))).isEqualTo(live);
        assertThat(res.epoch()).isEqualTo(8);
        // GC removed the old epochs: only the last few epochs still hold objects
        long epochsWithObjects = fx.lineageKeys().stream().map(k -> k.split("/")[3]).distinct().count();
        assertThat(epochsWithObjects).isLessThanOrEqualTo(3);
    }

    @Test
    void aSnapshotPlusTailRestoresTheTail() throws Exception {
        WalReplicator r = fx.replicator(fx.bucket, SMALL, 64 * 1024);
        CellHarness a = fx.activate(r, fx.bucket, "node-a");
        a.sql("CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB)").get(30, TimeUnit.SECONDS);
        Random rnd = new Random(3);
        for (int i = 0; i < 100; i++) {
            write(a, rnd, i, 3000);
        }
        ((WalCellReplica) a.replica()).maintenanceIdle().get(60, TimeUnit.SECONDS);
        assertThat(a.replica().stats().snapshots()).isPositive();
        a.sql("UPDATE t SET v = x'00' WHERE k < 10", "DELETE FROM t WHERE k > 90").get(30, TimeUnit.SECONDS);
        List<String> live = a.dump();
        RestoreResult res = r.restore(Fixture.SCOPE, Long.MAX_VALUE, fx.db("check")).get(60, TimeUnit.SECONDS);
        assertThat(CellHarness.dumpFile(fx.db("check"))).isEqualTo(live);
        assertThat(fx.lineageKeys()).anyMatch(k -> k.contains("/snap/") && k.endsWith("manifest.json"));
        assertThat(res.objectsRead()).isGreaterThan(1);
    }

    private static void write(CellHarness h, Random rnd, int key, int size) throws Exception {
        byte[] v = new byte[size];
        rnd.nextBytes(v);
        h.tx(c -> {
            try (PreparedStatement p = c.prepareStatement("INSERT OR REPLACE INTO t VALUES (?, ?)")) {
                p.setInt(1, key);
                p.setBytes(2, v);
                p.executeUpdate();
            }
        }).get(30, TimeUnit.SECONDS);
    }

    private static int chunks(CellHarness h) throws Exception {
        long bytes = h.read(c -> {
            try (var s = c.createStatement(); var rs = s.executeQuery("SELECT page_count * page_size FROM pragma_page_count, pragma_page_size")) {
                rs.next();
                return rs.getLong(1);
            }
        });
        return (int) (bytes / SMALL.chunkBytes()) + 1;
    }
}
