package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found by the fault proxy (gateway AmbiguousOutcomesScenario): a renewal whose answer is lost after the
 * bucket applied it is retried with a fresh expiry against the old version; that CAS is rejected
 * BECAUSE the first one landed. The keeper must recognise its own record (its session) and go on,
 * not fence a healthy node as if another writer had replaced its lease.
 */
class LeaseKeeperLostAnswerTest {
    static final long T0 = 1_000_000;

    @TempDir
    Path dir;

    @Test
    void aRenewalThatLandedWithoutAnAnswerIsAdoptedNotTakenForAnotherWriter() throws Exception {
        try (FileBucketStore real = new FileBucketStore("file://" + dir, dir, false)) {
            InterceptingStore bucket = new InterceptingStore(real);
            ManualScheduler sched = new ManualScheduler(T0);
            AtomicLong clock = new AtomicLong(T0);
            AtomicReference<String> fenced = new AtomicReference<>();
            LeaseKeeper keeper = new LeaseKeeper(bucket, new Self("n1", "s1"), "h:1", 1, 3_000, clock::get, sched,
                    () -> LeaseRecord.Load.IDLE, fenced::set);
            keeper.start().get(10, TimeUnit.SECONDS);
            AtomicInteger lost = new AtomicInteger();
            bucket.loseCasAnswer = k -> k.equals(Keys.lease("n1")) && lost.getAndIncrement() == 0;

            advance(sched, clock, T0 + 1_000); // the renewal lands, its answer is lost
            await(() -> lost.get() == 1);
            assertThat(stored(real).expiresMs()).isEqualTo(T0 + 4_000);
            // the retry (a fresh expiry, the old version) is rejected, then reconciled
            advanceUntil(sched, clock, T0 + 2_900, () -> keeper.publishedExpiryMs() == T0 + 4_000 || fenced.get() != null);
            assertThat(fenced.get()).as("fenced").isNull();
            assertThat(keeper.publishedExpiryMs()).as("the landed renewal is what peers see").isEqualTo(T0 + 4_000);

            // renewals go on from the adopted version
            advanceUntil(sched, clock, T0 + 3_900, () -> stored(real).expiresMs() > T0 + 4_000 || fenced.get() != null);
            assertThat(fenced.get()).isNull();
            assertThat(stored(real).expiresMs()).isGreaterThan(T0 + 4_000);
            assertThat(keeper.canServe()).isTrue();
        }
    }

    @Test
    void aRecordOfAnotherSessionStillFences() throws Exception {
        try (FileBucketStore real = new FileBucketStore("file://" + dir, dir, false)) {
            ManualScheduler sched = new ManualScheduler(T0);
            AtomicLong clock = new AtomicLong(T0);
            AtomicReference<String> fenced = new AtomicReference<>();
            LeaseKeeper keeper = new LeaseKeeper(real, new Self("n1", "s1"), "h:1", 1, 3_000, clock::get, sched,
                    () -> LeaseRecord.Load.IDLE, fenced::set);
            keeper.start().get(10, TimeUnit.SECONDS);
            LeaseRecord mine = stored(real);
            LeaseRecord other = new LeaseRecord("n1", "s2", "h:2", 1, T0, T0 + 9_000, LeaseRecord.Load.IDLE);
            real.put(Keys.lease("n1"), other.encode()).get(10, TimeUnit.SECONDS);
            assertThat(mine.session()).isEqualTo("s1");
            advance(sched, clock, T0 + 1_000);
            await(() -> fenced.get() != null);
            assertThat(fenced.get()).contains("replaced by another writer");
        }
    }

    private static LeaseRecord stored(FileBucketStore real) {
        return LeaseRecord.decode(real.get(Keys.lease("n1")).join().orElseThrow().bytes());
    }

    private static void advance(ManualScheduler sched, AtomicLong clock, long to) {
        clock.set(to);
        sched.advanceTo(to);
    }

    /** Moves virtual time in 100 ms steps (the store answers on its own threads in between) until {@code done}. */
    private static void advanceUntil(ManualScheduler sched, AtomicLong clock, long limit, BooleanSupplier done)
            throws InterruptedException {
        for (long t = clock.get() + 100; t <= limit && !done.getAsBoolean(); t += 100) {
            advance(sched, clock, t);
            await(done, 200);
        }
    }

    /** The store completes on its own threads: wait (bounded) for the effect, not a fixed time. */
    private static void await(BooleanSupplier done) throws InterruptedException {
        await(done, 10_000);
    }

    private static void await(BooleanSupplier done, long ms) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (!done.getAsBoolean() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
    }
}
