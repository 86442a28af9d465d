package dev.cellgate.core.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.Backoff;
import dev.cellgate.core.time.Scheduler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetryingTest {
    static final Backoff POLICY = new Backoff(100, 1_000, 4);

    /** Runs scheduled tasks only when asked, and records the delays asked for. */
    static final class StepScheduler implements Scheduler {
        final List<Long> delays = new ArrayList<>();
        final ArrayDeque<Runnable> due = new ArrayDeque<>();

        @Override
        public Cancellable after(long delayMs, Runnable task) {
            delays.add(delayMs);
            due.add(task);
            return () -> due.remove(task);
        }

        void runAll() {
            while (!due.isEmpty()) {
                due.poll().run();
            }
        }
    }

    static final class Busy extends RuntimeException {
        Busy(String m) {
            super(m);
        }
    }

    @Test
    void retriesWhatIsRetryableUpToTheAttemptBoundThenFailsWithTheLastError() {
        StepScheduler s = new StepScheduler();
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<String> r = Retrying.run(POLICY,
                () -> CompletableFuture.failedFuture(new CompletionException(new Busy("busy " + attempts.incrementAndGet()))),
                e -> e instanceof Busy, s, new SplittableRandom(5));
        s.runAll();
        assertThat(attempts.get()).isEqualTo(4);
        assertThat(s.delays).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(s.delays.get(i)).isBetween(0L, POLICY.ceilingMs(i + 1));
        }
        assertThatThrownBy(r::join).cause().isInstanceOf(Busy.class).hasMessage("busy 4");
    }

    @Test
    void stopsAtOnceOnAnErrorNotWorthRetrying() {
        StepScheduler s = new StepScheduler();
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<String> r = Retrying.run(POLICY, () -> {
            attempts.incrementAndGet();
            throw new IllegalArgumentException("refused");
        }, e -> e instanceof Busy, s, new SplittableRandom(5));
        s.runAll();
        assertThat(attempts.get()).isEqualTo(1);
        assertThat(s.delays).isEmpty();
        assertThatThrownBy(r::join).cause().isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSuccessAfterFailuresIsTheResultAndTheDelaysReplayFromTheSeed() {
        List<List<Long>> runs = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            StepScheduler s = new StepScheduler();
            AtomicInteger attempts = new AtomicInteger();
            CompletableFuture<Integer> r = Retrying.run(POLICY, () -> attempts.incrementAndGet() < 3
                    ? CompletableFuture.failedFuture(new Busy("again")) : CompletableFuture.completedFuture(attempts.get()),
                    e -> e instanceof Busy, s, new SplittableRandom(42));
            assertThat(r).isNotDone();
            s.runAll();
            assertThat(r.join()).isEqualTo(3);
            runs.add(s.delays);
        }
        assertThat(runs.get(0)).hasSize(2).isEqualTo(runs.get(1));
    }

    @Test
    void aClassifierThatThrowsEndsTheRetriesWithTheAttemptsError() {
        StepScheduler s = new StepScheduler();
        CompletableFuture<Object> r = Retrying.run(POLICY, () -> CompletableFuture.failedFuture(new Busy("x")),
                e -> {
                    throw new IllegalStateException("classifier bug");
                }, s, new SplittableRandom(1));
        s.runAll();
        assertThatThrownBy(r::join).cause().isInstanceOf(Busy.class)
                .satisfies(e -> assertThat(e.getSuppressed()).singleElement().hasFieldOrPropertyWithValue("message", "classifier bug"));
    }
}
