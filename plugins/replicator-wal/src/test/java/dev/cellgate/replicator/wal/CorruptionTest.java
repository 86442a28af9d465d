package dev.cellgate.replicator.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.replicator.wal.replica.WalCellReplica;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad data in the bucket is detected, named (cell and range), and never yields a partial database. */
class CorruptionTest {
    @TempDir
    Path tmp;
    Fixture fx;
    List<String> segments;

    @BeforeEach
    void setUp() throws Exception {
        fx = new Fixture(tmp);
        // No compaction and no snapshot: the history stays as one l0 segment per transaction.
        WalReplicator r = fx.replicator(fx.bucket, Fixture.policy().withL1EveryL0(1000), 1L << 40);
        CellHarness a = fx.activate(r, fx.bucket, "node-a");
        a.sql("CREATE TABLE t (v TEXT)").get(30, TimeUnit.SECONDS);
        for (int i = 0; i < 6; i++) {
            a.sql("INSERT INTO t VALUES ('" + "x".repeat(500) + i + "')").get(30, TimeUnit.SECONDS);
        }
        ((WalCellReplica) a.replica()).maintenanceIdle().get(30, TimeUnit.SECONDS);
        segments = fx.lineageKeys().stream().filter(k -> k.contains("/l0/")).toList();
        assertThat(segments).hasSize(7);
    }

    @AfterEach
    void tearDown() throws Exception {
        fx.close();
    }

    @Test
    void aTruncatedSegmentIsReportedWithItsRange() throws Exception {
        String k = segments.get(3);
        byte[] b = get(k);
        fx.bucket.put(k, java.util.Arrays.copyOf(b, b.length - 700)).get(10, TimeUnit.SECONDS);
        assertRefused("l0 segment of e1 txids 4..4", "truncated");
    }

    @Test
    void aFlippedByteIsReportedWithItsRange() throws Exception {
        String k = segments.get(5);
        byte[] b = get(k);
        b[b.length / 2] ^= 0x10;
        fx.bucket.put(k, b).get(10, TimeUnit.SECONDS);
        assertRefused("l0 segment of e1 txids 6..6", "CRC32C mismatch");
    }

    @Test
    void aDeletedMiddleSegmentIsAGapNamingTheMissingTransactions() throws Exception {
        fx.bucket.delete(segments.get(2)).get(10, TimeUnit.SECONDS);
        assertRefused("lineage gap in e1: txids 3..3 are missing", null);
    }

    @Test
    void aSegmentCopiedFromAnotherPlaceIsRefused() throws Exception {
        // the bytes of txid 5 placed under the key of txid 4: the header disagrees with the key
        fx.bucket.put(segments.get(3), get(segments.get(4))).get(10, TimeUnit.SECONDS);
        assertRefused("l0 segment of e1 txids 4..4", "not what its key names");
    }

    @Test
    void aMalformedPinIsReported() throws Exception {
        String base = fx.lineageKeys().stream().filter(k -> k.endsWith("base.json")).findFirst().orElseThrow();
        fx.bucket.put(base, "{\"format\":1,".getBytes()).get(10, TimeUnit.SECONDS);
        assertRefused("pin " + base, "not a JSON object");
    }

    private void assertRefused(String range, String why) throws Exception {
        long epoch = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-b");
        Path db = fx.db("node-b");
        WalReplicator r = fx.replicator();
        assertThatThrownBy(() -> r.restore(Fixture.SCOPE, epoch, db).get(30, TimeUnit.SECONDS))
                .cause().isInstanceOf(RestoreException.class)
                .hasMessageContaining("cell " + Fixture.SCOPE)
                .hasMessageContaining(range)
                .hasMessageContaining(why == null ? "" : why);
        assertThat(db).doesNotExist();
        assertThat(Fixture.strayFiles(db)).isEmpty();
    }

    private byte[] get(String key) throws Exception {
        return fx.bucket.get(key).get(10, TimeUnit.SECONDS).orElseThrow().bytes();
    }
}
