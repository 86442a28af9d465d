package dev.cellgate.replicator.wal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.replication.RestoreResult;
import java.nio.file.Files;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A restore whose caller gave up (an activation past its deadline cancels the future): it stops
 * reading the bucket and never writes the database, so a late restore cannot install anything.
 */
class RestoreCancelTest extends WithFixture {
    @Test
    void aCancelledRestoreStopsReadingAndWritesNoDatabase() throws Exception {
        WalReplicator writer = fx.replicator(fx.bucket, Fixture.policy().withL1EveryL0(1000), 64L << 20);
        CellHarness a = fx.activate(writer, fx.bucket, "node-a");
        a.sql("CREATE TABLE t (i INTEGER)").get(30, TimeUnit.SECONDS);
        for (int i = 0; i < 60; i++) {
            a.sql("INSERT INTO t VALUES (" + i + ")").get(30, TimeUnit.SECONDS);
        }
        a.close();
        int segments = (int) fx.lineageKeys().stream().filter(k -> k.endsWith(".seg")).count();
        assertThat(segments).isGreaterThan(3 * 16);

        FaultyStore slow = new FaultyStore(fx.bucket).delayReads(100);
        WalReplicator reader = fx.replicator(slow, Fixture.policy(), 64L << 20);
        long epoch = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-b");
        CompletableFuture<RestoreResult> restore = reader.restore(Fixture.SCOPE, epoch, fx.db("node-b"));
        Thread.sleep(350); // the pin and the first batch of 16 segments are being read
        assertThat(restore.cancel(false)).isTrue();
        int atCancel = slow.gets.get();
        Thread.sleep(1500);

        assertThat(slow.gets.get()).as("reads after the cancel (%d at the cancel, of %d segments)", atCancel, segments)
                .isLessThanOrEqualTo(atCancel + 16).isLessThan(segments);
        assertThat(Files.exists(fx.db("node-b"))).as("a database after the cancel").isFalse();
        assertThat(Fixture.strayFiles(fx.db("node-b"))).as("temporary files").isEmpty();
    }
}
