package dev.cellgate.core.async;

import dev.cellgate.core.logic.Backoff;
import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.time.Scheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Runs an asynchronous attempt under a {@link Backoff}: again after each failure the caller's
 * {@code retryable} accepts, waiting the policy's delay on the injected {@link Scheduler}, until it
 * succeeds, fails with something not retryable, or the attempts are used up. The result carries the
 * last outcome, its error without the asynchronous wrappers ({@link Errors#unwrap}). No thread and
 * no clock of its own: a simulator's scheduler and seeded random replay it exactly.
 */
public final class Retrying {
    /**
     * The production jitter source: each draw from the drawing thread's own generator, so one
     * instance may be shared by callbacks that run on any thread ({@code ThreadLocalRandom.current()}
     * captured once would be that one thread's). Tests and the simulator pass a seeded one.
     */
    public static final RandomGenerator ANY_THREAD = () -> ThreadLocalRandom.current().nextLong();

    private Retrying() {
    }

    public static <T> CompletableFuture<T> run(Backoff policy, Supplier<CompletableFuture<T>> attempt,
                                               Predicate<Throwable> retryable, Scheduler scheduler, RandomGenerator random) {
        CompletableFuture<T> result = new CompletableFuture<>();
        attempt(policy, attempt, retryable, scheduler, random, result, 1);
        return result;
    }

    private static <T> void attempt(Backoff policy, Supplier<CompletableFuture<T>> attempt, Predicate<Throwable> retryable,
                                    Scheduler scheduler, RandomGenerator random, CompletableFuture<T> result, int n) {
        Started.by(attempt, "a retried attempt").whenComplete((value, error) -> {
            if (error == null) {
                result.complete(value);
                return;
            }
            Throwable cause = Errors.unwrap(error);
            boolean again;
            try {
                again = retryable.test(cause);
            } catch (RuntimeException e) {
                cause.addSuppressed(e);
                again = false;
            }
            switch (policy.afterFailure(n, again, random)) {
                // Each retry starts on the scheduler's thread, never inside this completion: no recursion.
                case Backoff.Next.RetryAfter r -> scheduler.after(r.delayMs(),
                        () -> attempt(policy, attempt, retryable, scheduler, random, result, n + 1));
                case Backoff.Next.GiveUp g -> result.completeExceptionally(cause);
            }
        });
    }
}
