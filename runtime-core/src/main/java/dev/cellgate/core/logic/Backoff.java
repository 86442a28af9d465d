package dev.cellgate.core.logic;

import java.util.OptionalLong;
import java.util.random.RandomGenerator;

/**
 * Capped exponential backoff with full jitter for throttled or failing bucket calls: the n-th retry
 * waits a uniformly random time in {@code [0, min(cap, base * 2^(n-1))]}. Full jitter spreads the
 * retries of many callers that failed together (one 503 burst) instead of having them return in
 * lockstep; the cap and the attempt bound keep a throttling bucket from causing a retry storm. The
 * random source is injected, so a seeded simulator replays it exactly.
 *
 * @param baseMs      ceiling of the first retry's delay
 * @param capMs       largest delay ever
 * @param maxAttempts attempts in all (the first one included); after that the call fails
 */
public record Backoff(long baseMs, long capMs, int maxAttempts) {
    public Backoff {
        if (baseMs < 1 || capMs < baseMs || maxAttempts < 1) {
            throw new IllegalArgumentException("backoff needs 1 <= base <= cap and maxAttempts >= 1, got base="
                    + baseMs + " cap=" + capMs + " maxAttempts=" + maxAttempts);
        }
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
        if (failedAttempts >= maxAttempts) {
            return OptionalLong.empty();
        }
        long ceiling = ceilingMs(failedAttempts);
        return OptionalLong.of(random.nextLong(ceiling + 1));
    }
}
