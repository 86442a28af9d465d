package dev.cellgate.core.logic;

import java.util.OptionalLong;

/**
 * Retries of a failing {@code alarm()} handler, as Cloudflare documents them: "retried upon failure
 * using exponential backoff, starting at 2 second delays for up to 6 retries". So an alarm runs at
 * most 7 times (the first attempt and 6 retries), waiting 2, 4, 8, 16, 32 then 64 seconds; the
 * handler sees {@code retryCount} 1..6 and {@code isRetry} on the retries.
 */
public final class AlarmRetry {
    public static final int MAX_RETRIES = 6;
    public static final long FIRST_DELAY_MS = 2_000;

    private AlarmRetry() {
    }

    /**
     * @param failedAttempts how many attempts failed so far (the first attempt counts), at least 1
     * @return the delay before the next attempt, or empty when the retries are used up
     */
    public static OptionalLong nextDelayMs(int failedAttempts) {
        if (failedAttempts < 1) {
            throw new IllegalArgumentException("failedAttempts must be at least 1, got " + failedAttempts);
        }
        if (failedAttempts > MAX_RETRIES) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(FIRST_DELAY_MS << (failedAttempts - 1));
    }

    /** The {@code retryCount} the handler sees on the attempt after {@code failedAttempts} failures. */
    public static int retryCount(int failedAttempts) {
        if (failedAttempts < 0 || failedAttempts > MAX_RETRIES) {
            throw new IllegalArgumentException("no attempt follows " + failedAttempts + " failures");
        }
        return failedAttempts;
    }
}
