package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30 item 3, reproduced with libfaketime on real processes: a waker whose clock runs 8 s
 * ahead (TTL 10 s) retired a live lease and the healthy node exited with {@code SELF-FENCE: lease
 * record … was deleted by another writer}. Here the real {@link LeaseKeeper} (true clock, TTL 10 s,
 * the default margin) renews on virtual time while the real {@link DeadNodeGc} runs a pass every
 * second on a clock 8 s ahead. The healthy node must keep its lease and never fence.
 */
class SkewedGcTest {
    static final long T0 = 1_700_000_000_000L;
    static final long TTL = 10_000;
    static final long AHEAD = 8_000;

    @TempDir
    Path dir;

    @Test
    void aGcWhoseClockRunsEightSecondsAheadLeavesAHealthyLeaseAlone() throws Exception {
        try (FileBucketStore bucket = new FileBucketStore("file://" + dir, dir, false)) {
            ManualScheduler sched = new ManualScheduler(T0);
            AtomicReference<String> fenced = new AtomicReference<>();
            LeaseKeeper keeper = new LeaseKeeper(bucket, new Self("healthy", "s1"), "h:1", 1, TTL, sched::now, sched,
                    () -> LeaseRecord.Load.IDLE, fenced::set);
            keeper.start().get(10, TimeUnit.SECONDS);
            DeadNodeGc aheadGc = new DeadNodeGc(bucket, () -> sched.now() + AHEAD, 1_000);
            int retired = 0;
            for (long t = T0 + 250; t <= T0 + 60_000 && fenced.get() == null; t += 250) {
                long before = keeper.publishedExpiryMs();
                sched.advanceTo(t);
                awaitRenewalLanded(keeper, before);
                if (t % 1_000 == 0) {
                    retired += aheadGc.runPass().get(10, TimeUnit.SECONDS).retired();
                }
            }
            assertThat(fenced.get()).as("the healthy node fenced itself").isNull();
            assertThat(retired).as("leases retired by the skewed GC").isZero();
            assertThat(bucket.get(Keys.lease("healthy")).get()).as("the healthy node's lease").isPresent();
            assertThat(keeper.canServe()).isTrue();
        }
    }

    /** A renewal due at this step answers on the store's threads: wait for it (or for nothing to change). */
    private static void awaitRenewalLanded(LeaseKeeper keeper, long before) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(40);
        while (keeper.publishedExpiryMs() == before && System.nanoTime() < until) {
            Thread.sleep(2);
        }
    }
}
