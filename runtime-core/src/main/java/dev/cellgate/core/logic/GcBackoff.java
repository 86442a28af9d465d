package dev.cellgate.core.logic;

/**
 * How long dead-node GC waits before retrying a node whose marker deletions failed (seed 001):
 * one tick after the first failure, doubling, capped at 64 ticks. The cap keeps a storage outage
 * from pushing a retry days away; the doubling keeps a persistently failing bucket from being
 * hammered every tick (no retry storm). The state lives in memory only: a restart starts over.
 */
public final class GcBackoff {
    public static final long MAX_TICKS = 64;

    private GcBackoff() {
    }

    /** @param failures consecutive failed attempts so far, at least 1 */
    public static long retryDelayTicks(int failures) {
        if (failures < 1) {
            throw new IllegalArgumentException("failures must be at least 1, got " + failures);
        }
        // 2^6 = 64: from the 7th failure on, the shift would only grow past the cap (and overflow later).
        return failures > 7 ? MAX_TICKS : Math.min(MAX_TICKS, 1L << (failures - 1));
    }

    /** {@link #retryDelayTicks} in milliseconds for a tick of {@code tickMs}. */
    public static long retryDelayMs(int failures, long tickMs) {
        if (tickMs < 1) {
            throw new IllegalArgumentException("tickMs must be positive, got " + tickMs);
        }
        return Math.multiplyExact(retryDelayTicks(failures), tickMs);
    }
}
