package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found by the simulator (seed 370): a node read a live owner's lease, was paused for a few seconds
 * before its callback ran, then judged that (by now stale) record against its current clock, found it
 * expired, and took the cell from an owner that had renewed meanwhile.
 */
class OwnershipStoreStaleLeaseTest {
    static final String SCOPE = "Counter:" + "cd".repeat(32);
    static final long T = 5_000_000;

    @TempDir
    Path dir;

    @Test
    void aLeaseIsJudgedAtTheTimeItWasReadNotWhenTheAnswerIsProcessed() throws Exception {
        try (FileBucketStore bucket = new FileBucketStore("file://" + dir, dir, false)) {
            AtomicLong clock = new AtomicLong(T);
            lease(bucket, T + 10_000);
            assertThat(new OwnershipStore(bucket, new Self("n1", "s1"), clock::get).acquire(SCOPE).get())
                    .isInstanceOf(Acquisition.Acquired.class);

            InterceptingStore paused = new InterceptingStore(bucket);
            paused.afterGet = key -> {
                if (!key.equals(Keys.lease("n1"))) {
                    return CompletableFuture.completedFuture(null);
                }
                // n2 stops for 20 s right after the read; n1 keeps renewing meanwhile
                clock.set(T + 20_000);
                return CompletableFuture.runAsync(() -> lease(bucket, T + 30_000));
            };
            Acquisition a = new OwnershipStore(paused, new Self("n2", "s2"), clock::get).acquire(SCOPE).get();
            assertThat(a).isEqualTo(new Acquisition.OwnedElsewhere("n1"));
        }
    }

    static void lease(FileBucketStore bucket, long expires) {
        bucket.put(Keys.lease("n1"), new LeaseRecord("n1", "s1", "h:1", 1, 0, expires, LeaseRecord.Load.IDLE).encode()).join();
    }
}
