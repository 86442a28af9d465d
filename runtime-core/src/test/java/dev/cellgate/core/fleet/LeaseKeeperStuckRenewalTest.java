package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found in CI (CrashS3IT, exit 3): one lease renewal through the S3 emulator stayed unanswered past
 * the lease's expiry, and nothing else was sent: a healthy node fenced itself. A renewal that does
 * not answer within the attempt budget must be hedged by another attempt on the same version; the
 * stuck one, if it lands or answers later, must change nothing.
 */
class LeaseKeeperStuckRenewalTest {
    static final long T0 = 1_000_000;
    static final long TTL = 3_000;
    static final CompletableFuture<Void> NOT_HELD = CompletableFuture.completedFuture(null);

    @TempDir
    Path dir;
    private FileBucketStore real;
    private InterceptingStore bucket;
    private final ManualScheduler sched = new ManualScheduler(T0);
    private final AtomicLong clock = new AtomicLong(T0);
    private final AtomicReference<String> fenced = new AtomicReference<>();
    private LeaseKeeper keeper;

    @BeforeEach
    void startedKeeperOnARealStore() throws Exception {
        real = new FileBucketStore("file://" + dir, dir, false);
        bucket = new InterceptingStore(real);
        keeper = new LeaseKeeper(bucket, new Self("n1", "s1"), "h:1", 1, TTL, clock::get, sched,
                () -> LeaseRecord.Load.IDLE, fenced::set);
        keeper.start().get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void closeStore() {
        real.close();
    }

    @Test
    void aStuckRenewalIsHedgedBeforeTheLeaseExpires() throws Exception {
        CompletableFuture<Void> stuck = new CompletableFuture<>();
        AtomicInteger casCalls = new AtomicInteger();
        bucket.beforeCas = k -> k.equals(Keys.lease("n1")) && casCalls.getAndIncrement() == 0 ? stuck : NOT_HELD;

        // the first renewal (at TTL/3) never answers; well before the expiry another goes out
        advanceUntil(T0 + TTL - 100, () -> stored().expiresMs() > T0 + TTL || fenced.get() != null);
        assertThat(fenced.get()).as("fenced").isNull();
        assertThat(casCalls.get()).as("renewal attempts").isEqualTo(2);
        assertThat(stored().expiresMs()).isGreaterThan(T0 + TTL);
        long renewedTo = stored().expiresMs();
        await(() -> keeper.publishedExpiryMs() == renewedTo);
        assertThat(keeper.publishedExpiryMs()).isEqualTo(renewedTo);

        // the stuck request lands now: its CAS on the old version is rejected, and it is ignored
        stuck.complete(null);
        advanceUntil(T0 + 3 * TTL, () -> fenced.get() != null);
        assertThat(fenced.get()).as("fenced after the stuck request answered").isNull();
        assertThat(keeper.canServe()).isTrue();
        assertThat(stored().session()).isEqualTo("s1");
        assertThat(stored().expiresMs()).isGreaterThan(T0 + 2 * TTL);
    }

    @Test
    void aStuckRenewalThatLandsFirstIsAdopted() throws Exception {
        CompletableFuture<Void> stuck = new CompletableFuture<>();
        CompletableFuture<Void> hedge = new CompletableFuture<>();
        AtomicInteger casCalls = new AtomicInteger();
        bucket.beforeCas = k -> {
            if (!k.equals(Keys.lease("n1"))) {
                return NOT_HELD;
            }
            int n = casCalls.getAndIncrement();
            return n == 0 ? stuck : n == 1 ? hedge : NOT_HELD;
        };
        advanceUntil(T0 + TTL - 100, () -> casCalls.get() == 2);
        assertThat(casCalls.get()).as("the hedge went out").isEqualTo(2);
        // the first lands and answers: its renewal is the one kept; the hedge then reaches the
        // store, is rejected (the version moved) and its answer is ignored
        stuck.complete(null);
        await(() -> stored().expiresMs() == T0 + TTL / 3 + TTL);
        hedge.complete(null);
        await(() -> keeper.publishedExpiryMs() == T0 + TTL / 3 + TTL);
        assertThat(keeper.publishedExpiryMs()).isEqualTo(T0 + TTL / 3 + TTL);
        advanceUntil(T0 + 3 * TTL, () -> fenced.get() != null);
        assertThat(fenced.get()).isNull();
        assertThat(stored().expiresMs()).isGreaterThan(T0 + 2 * TTL);
    }

    @Test
    void noAnswerAtAllStillFencesAtTheExpiry() throws Exception {
        AtomicInteger casCalls = new AtomicInteger();
        bucket.beforeCas = k -> {
            casCalls.incrementAndGet();
            return new CompletableFuture<>();
        };
        advanceUntil(T0 + TTL + 100, () -> fenced.get() != null);
        assertThat(fenced.get()).contains("expired without a successful renewal");
        assertThat(keeper.canServe()).isFalse();
        assertThat(casCalls.get()).as("attempts before the expiry").isBetween(3, 5);
    }

    private LeaseRecord stored() {
        return LeaseRecord.decode(real.get(Keys.lease("n1")).join().orElseThrow().bytes());
    }

    /**
     * Moves virtual time in 100 ms steps until {@code done}; after each step it waits for the store
     * to answer whatever the step sent (held requests aside), so virtual time never outruns it.
     */
    private void advanceUntil(long limit, BooleanSupplier done) throws InterruptedException {
        for (long t = clock.get() + 100; t <= limit && !done.getAsBoolean(); t += 100) {
            clock.set(t);
            sched.advanceTo(t);
            await(() -> bucket.pending.get() == 0);
        }
    }

    /** The store completes on its own threads: wait (bounded) for the effect, not a fixed time. */
    private static void await(BooleanSupplier done) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
    }
}
