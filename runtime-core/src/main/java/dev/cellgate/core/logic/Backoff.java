package dev.cellgate.core.logic;

import java.util.OptionalLong;
import java.util.random.RandomGenerator;

/**
 * The one retry policy: capped exponential backoff, an attempt bound, and what a failure leads to.
 * The n-th retry waits up to {@code min(cap, base * 2^(n-1))}: with {@link Jitter#FULL} a uniformly
 * random time in {@code [0, that]}, with {@link Jitter#NONE} exactly that. Full jitter spreads the
 * retries of many callers that failed together (one 503 burst) instead of having them return in
 * lockstep; the cap and the attempt bound keep a throttling bucket from causing a retry storm. The
 * random source is injected, so a seeded simulator replays it exactly.
 *
 * <p>Which errors are worth another attempt is the caller's classification (a bucket store knows
 * which of its answers prove that nothing was done); this policy decides what follows from it
 * ({@link #afterFailure}). {@code dev.cellgate.core.async.Retrying} runs it over asynchronous
 * attempts; tick-driven sweeps (dead-node GC, the waker) keep their own per-item failure counts and
 * ask it for the rest.
 *
 * @param baseMs      ceiling of the first retry's delay
 * @param capMs       largest delay ever
 * @param maxAttempts attempts in all (the first one included); after that the call fails.
 *                    {@link #UNBOUNDED}: a sweep that tries again on every pass, forever
 */
public record Backoff(long baseMs, long capMs, int maxAttempts, Jitter jitter) {
    public static final int UNBOUNDED = Integer.MAX_VALUE;

    /** How a delay is drawn below its ceiling. */
    public enum Jitter {
        /** Uniform in [0, ceiling]: for many callers that fail together. */
        FULL,
        /**
         * Exactly the ceiling: where the wait itself is the point (a read-after-create that may lag,
         * a pass-counted rest), not the spread.
         */
        NONE
    }

    /** What follows a failed attempt. */
    public sealed interface Next {
        /** Try again after {@code delayMs}. */
        record RetryAfter(long delayMs) implements Next {
        }

        /** Stop with the last failure: it was not worth a retry, or the attempts are used up. */
        record GiveUp(boolean attemptsUsedUp) implements Next {
        }
    }

    public Backoff {
        if (baseMs < 1 || capMs < baseMs || maxAttempts < 1 || jitter == null) {
            throw new IllegalArgumentException("backoff needs 1 <= base <= cap, maxAttempts >= 1 and a jitter, got base="
                    + baseMs + " cap=" + capMs + " maxAttempts=" + maxAttempts + " jitter=" + jitter);
        }
    }

    /** Full jitter, the default for calls that many nodes make at once. */
    public Backoff(long baseMs, long capMs, int maxAttempts) {
        this(baseMs, capMs, maxAttempts, Jitter.FULL);
    }

    /**
     * The rest of a tick-driven sweep's item after failures: one tick after the first, doubling,
     * capped at {@code maxTicks} ticks, never giving up (the next pass tries again), no jitter (a
     * rest counts passes). In milliseconds; {@link #ceilingMs} of it is the rest.
     *
     * @throws ArithmeticException when {@code maxTicks} ticks overflow a long of milliseconds
     */
    public static Backoff ticks(long tickMs, long maxTicks) {
        if (tickMs < 1 || maxTicks < 1) {
            throw new IllegalArgumentException("a tick backoff needs a positive tick and cap, got tick=" + tickMs
                    + " ms, cap=" + maxTicks + " ticks");
        }
        return new Backoff(tickMs, Math.multiplyExact(maxTicks, tickMs), UNBOUNDED, Jitter.NONE);
    }

    /**
     * The decision after {@code failedAttempts} failures in a row, the last of which was
     * {@code retryable} or not by the caller's classification.
     */
    public Next afterFailure(int failedAttempts, boolean retryable, RandomGenerator random) {
        if (!retryable) {
            return new Next.GiveUp(false);
        }
        OptionalLong d = delayMs(failedAttempts, random);
        return d.isPresent() ? new Next.RetryAfter(d.getAsLong()) : new Next.GiveUp(true);
    }

    /** The upper bound of the delay after {@code failedAttempts} failures. */
    public long ceilingMs(int failedAttempts) {
        if (failedAttempts < 1) {
            throw new IllegalArgumentException("failedAttempts must be at least 1, got " + failedAttempts);
        }
        int shift = failedAttempts - 1;
        if (shift >= 62 || baseMs > (capMs >> shift)) {
            return capMs;
        }
        return Math.min(capMs, baseMs << shift);
    }

    /** The delay before the next attempt, or empty when {@code failedAttempts} used up the attempts. */
    public OptionalLong delayMs(int failedAttempts, RandomGenerator random) {
        long ceiling = ceilingMs(failedAttempts);
        if (failedAttempts >= maxAttempts) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(jitter == Jitter.NONE ? ceiling : random.nextLong(ceiling + 1));
    }

    /** The longest an operation that fails every attempt waits in all (every delay at its ceiling). */
    public long longestWaitMs() {
        long sum = 0;
        for (int i = 1; i < maxAttempts; i++) {
            long c = ceilingMs(i);
            if (c == capMs) {
                return Math.addExact(sum, Math.multiplyExact(capMs, (long) maxAttempts - i));
            }
            sum += c;
        }
        return sum;
    }
}
