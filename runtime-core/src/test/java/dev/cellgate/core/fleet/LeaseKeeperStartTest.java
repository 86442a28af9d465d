package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30 item 9: a start whose first lease write came back rejected or ambiguous failed the node
 * ("could not write lease … Ambiguous…") instead of reading the record back (SPEC §5: an ambiguous
 * write is reconciled by re-reading, never assumed); and {@code canServe()} stayed true after a
 * handoff stop had deleted the lease.
 */
class LeaseKeeperStartTest {
    static final long T0 = 1_000_000;

    @TempDir
    Path dir;

    /** The first {@code n} creates of the lease: applied or not, and answered with {@code outcome}. */
    static final class UnclearCreates extends ForwardingBucketStore {
        final AtomicInteger left;
        final boolean applied;
        final WriteOutcome outcome;

        UnclearCreates(BucketStore inner, int n, boolean applied, WriteOutcome outcome) {
            super(inner);
            this.left = new AtomicInteger(n);
            this.applied = applied;
            this.outcome = outcome;
        }

        @Override
        public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
            if (!key.equals(Keys.lease("n1")) || left.getAndDecrement() <= 0) {
                return inner.putIfAbsent(key, bytes);
            }
            CompletableFuture<WriteOutcome> write = applied ? inner.putIfAbsent(key, bytes) : CompletableFuture.completedFuture(null);
            return write.thenApply(x -> outcome);
        }
    }

    /** Starts a keeper on {@code store}, moving virtual time on while the start waits, and returns it once started. */
    LeaseKeeper started(BucketStore store, ManualScheduler sched, AtomicReference<String> fenced) throws Exception {
        LeaseKeeper keeper = new LeaseKeeper(store, new Self("n1", "s1"), "h:1", 1, 3_000, sched::now, sched,
                () -> LeaseRecord.Load.IDLE, fenced::set);
        CompletableFuture<Void> start = keeper.start();
        for (int i = 0; i < 200 && !start.isDone(); i++) {
            Thread.sleep(5);
            sched.advanceTo(sched.now() + 20);
        }
        start.get(10, TimeUnit.SECONDS);
        return keeper;
    }

    LeaseRecord stored(BucketStore b) throws Exception {
        return LeaseRecord.decode(b.get(Keys.lease("n1")).get().orElseThrow().bytes());
    }

    @Test
    void anAmbiguousFirstWriteThatLandedIsAdoptedFromTheRecord() throws Exception {
        try (FileBucketStore real = new FileBucketStore("file://" + dir, dir, false)) {
            ManualScheduler sched = new ManualScheduler(T0);
            AtomicReference<String> fenced = new AtomicReference<>();
            LeaseKeeper keeper = started(new UnclearCreates(real, 1, true,
                    new WriteOutcome.Ambiguous("injected: answer lost after the create landed", null)), sched, fenced);
            assertThat(stored(real).session()).isEqualTo("s1");
            assertThat(keeper.canServe()).isTrue();
            // and it renews from the adopted version
            long expiry = keeper.publishedExpiryMs();
            sched.advanceTo(sched.now() + 1_000);
            DeadNodeGcTest.awaitTrue(() -> keeper.publishedExpiryMs() > expiry);
            assertThat(fenced.get()).isNull();
        }
    }

    @Test
    void anAmbiguousFirstWriteThatDidNotLandIsWrittenAgain() throws Exception {
        try (FileBucketStore real = new FileBucketStore("file://" + dir, dir, false)) {
            LeaseKeeper keeper = started(new UnclearCreates(real, 2, false,
                    new WriteOutcome.Ambiguous("injected: timeout before the create", null)), new ManualScheduler(T0), new AtomicReference<>());
            assertThat(stored(real).session()).isEqualTo("s1");
            assertThat(keeper.canServe()).isTrue();
        }
    }

    @Test
    void aRejectedFirstWriteIsReconciledByReadingAgain() throws Exception {
        try (FileBucketStore real = new FileBucketStore("file://" + dir, dir, false)) {
            // a spurious rejection (a 409 "concurrent conditional write" from an S3-compatible server): nothing was written
            LeaseKeeper keeper = started(new UnclearCreates(real, 1, false, new WriteOutcome.Rejected("injected: 409")),
                    new ManualScheduler(T0), new AtomicReference<>());
            assertThat(stored(real).session()).isEqualTo("s1");
            assertThat(keeper.canServe()).isTrue();
        }
    }

    @Test
    void aHandoffStopEndsServingBeforeItDeletesTheLease() throws Exception {
        try (FileBucketStore real = new FileBucketStore("file://" + dir, dir, false)) {
            LeaseKeeper keeper = started(real, new ManualScheduler(T0), new AtomicReference<>());
            assertThat(keeper.canServe()).isTrue();
            keeper.stop(true).get(10, TimeUnit.SECONDS);
            assertThat(real.get(Keys.lease("n1")).get()).as("the lease is deleted").isEmpty();
            assertThat(keeper.canServe()).as("serving after the lease was deleted").isFalse();
        }
    }

    @Test
    void aPreserveStopEndsServingToo() throws Exception {
        try (FileBucketStore real = new FileBucketStore("file://" + dir, dir, false)) {
            LeaseKeeper keeper = started(real, new ManualScheduler(T0), new AtomicReference<>());
            keeper.lapse().get(10, TimeUnit.SECONDS);
            assertThat(keeper.canServe()).isFalse();
        }
    }
}
