package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found by the simulator (seed 225): a process starting between dead-node GC's tombstone CAS and its
 * delete wrote its fresh lease over the tombstone, renewed it, and lost it to the GC's delete.
 * A starting process now waits for a tombstone of its node to be deleted.
 */
class LeaseKeeperTombstoneTest {
    static final long T0 = 1_000_000;

    @TempDir
    Path dir;
    FileBucketStore bucket;
    final ManualScheduler sched = new ManualScheduler(T0);
    final AtomicLong clock = new AtomicLong(T0);

    @BeforeEach
    void open() throws Exception {
        bucket = new FileBucketStore("file://" + dir, dir, false);
        bucket.put(Keys.lease("n1"), new LeaseRecord("n1", "old", "h:1", 1, 0, 0, LeaseRecord.Load.IDLE).encode()).get();
    }

    @AfterEach
    void close() {
        bucket.close();
    }

    LeaseKeeper keeper() {
        return new LeaseKeeper(bucket, new Self("n1", "new"), "h:1", 1, 3_000, clock::get, sched,
                () -> LeaseRecord.Load.IDLE, cause -> { });
    }

    /** Moves virtual time a renewal period at a time until {@code f} completes (the store answers on its own threads). */
    void advanceUntilDone(CompletableFuture<?> f, int maxPeriods) throws Exception {
        for (int i = 0; i < maxPeriods * 50 && !f.isDone(); i++) {
            Thread.sleep(10);
            if (i % 50 == 49) {
                clock.addAndGet(1_000);
                sched.advanceTo(clock.get());
            }
        }
    }

    LeaseRecord stored() throws Exception {
        return LeaseRecord.decode(bucket.get(Keys.lease("n1")).get().orElseThrow().bytes());
    }

    @Test
    void aStartWaitsForTheGcToDeleteTheTombstone() throws Exception {
        CompletableFuture<Void> started = keeper().start();
        advanceUntilDone(started, 2);
        assertThat(started).as("waiting while the tombstone is there").isNotDone();
        assertThat(stored().isTombstone()).isTrue();
        bucket.delete(Keys.lease("n1")).get(); // the GC's delete lands
        advanceUntilDone(started, 3);
        started.get(10, TimeUnit.SECONDS);
        assertThat(stored().session()).isEqualTo("new");
        assertThat(stored().isTombstone()).isFalse();
    }

    @Test
    void aTombstoneLeftByACrashedGcIsOverwrittenAfterTheBoundedWait() throws Exception {
        CompletableFuture<Void> started = keeper().start();
        advanceUntilDone(started, LeaseKeeper.TOMBSTONE_WAITS + 3);
        started.get(10, TimeUnit.SECONDS);
        assertThat(stored().session()).isEqualTo("new");
        assertThat(clock.get() - T0).as("it did wait").isGreaterThanOrEqualTo(LeaseKeeper.TOMBSTONE_WAITS * 1_000L);
    }
}
