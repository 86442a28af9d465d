package dev.cellgate.replicator.wal.bucket;

import java.time.Duration;

/** Bounded retries with doubling backoff for bucket calls: no amplification when the bucket struggles. */
public record RetryPolicy(int attempts, Duration firstDelay, Duration maxDelay) {
    public RetryPolicy {
        if (attempts < 1 || firstDelay.isNegative() || maxDelay.compareTo(firstDelay) < 0) {
            throw new IllegalArgumentException("invalid retry policy " + attempts + "/" + firstDelay + "/" + maxDelay);
        }
    }

    public static RetryPolicy defaults() {
        return new RetryPolicy(6, Duration.ofMillis(50), Duration.ofSeconds(2));
    }

    /** Delay before attempt {@code n} (1-based; attempt 1 has none). */
    public long delayMillis(int n) {
        if (n <= 1) {
            return 0;
        }
        long d = firstDelay.toMillis() << Math.min(20, n - 2);
        return Math.min(d, maxDelay.toMillis());
    }
}
