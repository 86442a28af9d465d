package dev.cellgate.store.s3;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Bounded retries with capped exponential backoff and full jitter, for answers that prove the
 * server did no work (throttling). One logical operation makes at most {@code maxAttempts}
 * requests: the SDK's own retries are off, so nothing multiplies this bound.
 *
 * <p>Full jitter (a uniform delay between 0 and the capped exponential) spreads the retries of
 * many nodes that were throttled at the same instant, instead of having them return together.
 */
record Backoff(int maxAttempts, Duration base, Duration cap) {

    static final Backoff DEFAULT = new Backoff(6, Duration.ofMillis(100), Duration.ofSeconds(5));

    Backoff {
        if (maxAttempts < 1 || base.isNegative() || base.isZero() || cap.compareTo(base) < 0) {
            throw new IllegalArgumentException("invalid backoff " + maxAttempts + "/" + base + "/" + cap);
        }
    }

    /** The ceiling of the delay before attempt {@code next} (2, 3, ...): base * 2^(next-2), capped. */
    Duration ceiling(int next) {
        int doublings = Math.min(next - 2, 30);
        long ms = base.toMillis() << doublings;
        return ms <= 0 || ms > cap.toMillis() ? cap : Duration.ofMillis(ms);
    }

    /** A delay drawn uniformly from [0, ceiling(next)]. */
    Duration delay(int next, RandomGenerator random) {
        return Duration.ofMillis(random.nextLong(ceiling(next).toMillis() + 1));
    }

    /**
     * Runs {@code attempt} until it succeeds, fails with something {@code retryable} rejects, or
     * {@code maxAttempts} attempts were made; the returned future carries the last outcome.
     */
    <T> CompletableFuture<T> run(Supplier<CompletableFuture<T>> attempt, Predicate<Throwable> retryable,
                                 ScheduledExecutorService timer, RandomGenerator random) {
        CompletableFuture<T> result = new CompletableFuture<>();
        AtomicInteger made = new AtomicInteger();
        Runnable[] next = new Runnable[1];
        next[0] = () -> {
            int n = made.incrementAndGet();
            CompletableFuture<T> f;
            try {
                f = attempt.get();
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((value, error) -> {
                if (error == null) {
                    result.complete(value);
                } else if (n < maxAttempts && retryable.test(unwrap(error))) {
                    timer.schedule(next[0], delay(n + 1, random).toMillis(), TimeUnit.MILLISECONDS);
                } else {
                    result.completeExceptionally(unwrap(error));
                }
            });
        };
        next[0].run();
        return result;
    }

    static Throwable unwrap(Throwable t) {
        while ((t instanceof java.util.concurrent.CompletionException || t instanceof java.util.concurrent.ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
