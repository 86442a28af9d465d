package dev.cellgate.core.logic;

/**
 * The delivery decisions of one queue (docs/queues.md): when a batch is due, and what becomes of
 * each message of a delivered batch — deleted, delivered again later, moved to the dead letter
 * queue, or dropped. The queue's cell (js-graal {@code bindings/queues.js}) holds the messages in
 * its SQLite and applies these answers; it is single-owner fleet-wide, so one batch of a queue is
 * in flight at a time. Pure: the caller passes the clock.
 */
public final class QueueDelivery {
    public static final int DEFAULT_MAX_BATCH_SIZE = 10;
    public static final int MAX_BATCH_SIZE = 100;
    public static final int DEFAULT_MAX_BATCH_TIMEOUT_S = 5;
    public static final int MAX_BATCH_TIMEOUT_S = 60;
    public static final int DEFAULT_MAX_RETRIES = 3;
    public static final int MAX_RETRIES = 100;
    /** The longest delaySeconds of a send or a retry, and the longest retry_delay / delivery_delay (24 hours). */
    public static final int MAX_DELAY_S = 86_400;

    private QueueDelivery() {
    }

    /**
     * A consumer's settings with Cloudflare's defaults applied.
     *
     * @param deadLetterQueue the queue a message goes to after its last failed attempt, or null: dropped
     */
    public record Settings(int maxBatchSize, int maxBatchTimeoutS, int maxRetries, int retryDelayS, String deadLetterQueue) {
        public Settings {
            String p = problem(maxBatchSize, maxBatchTimeoutS, maxRetries, retryDelayS);
            if (p != null) {
                throw new IllegalArgumentException(p);
            }
        }

        /** Unset values (null) take Cloudflare's defaults; max_concurrency above 1 is refused (one batch at a time per queue). */
        public static Settings of(Long maxBatchSize, Long maxBatchTimeoutS, Long maxRetries, Long retryDelayS, Long maxConcurrency,
                                  String deadLetterQueue) {
            if (maxConcurrency != null && maxConcurrency != 1) {
                throw new IllegalArgumentException("max_concurrency " + maxConcurrency + " is not supported: a queue is one cell, so "
                        + "its consumer runs one batch at a time fleet-wide; set max_concurrency to 1 or leave it out");
            }
            return new Settings(intOr(maxBatchSize, DEFAULT_MAX_BATCH_SIZE, "max_batch_size"),
                    intOr(maxBatchTimeoutS, DEFAULT_MAX_BATCH_TIMEOUT_S, "max_batch_timeout"),
                    intOr(maxRetries, DEFAULT_MAX_RETRIES, "max_retries"), intOr(retryDelayS, 0, "retry_delay"),
                    deadLetterQueue);
        }

        static String problem(int maxBatchSize, int maxBatchTimeoutS, int maxRetries, int retryDelayS) {
            if (maxBatchSize < 1 || maxBatchSize > MAX_BATCH_SIZE) {
                return "max_batch_size must be 1 to " + MAX_BATCH_SIZE + " (got " + maxBatchSize + ")";
            }
            if (maxBatchTimeoutS < 0 || maxBatchTimeoutS > MAX_BATCH_TIMEOUT_S) {
                return "max_batch_timeout must be 0 to " + MAX_BATCH_TIMEOUT_S + " seconds (got " + maxBatchTimeoutS + ")";
            }
            if (maxRetries < 0 || maxRetries > MAX_RETRIES) {
                return "max_retries must be 0 to " + MAX_RETRIES + " (got " + maxRetries + ")";
            }
            if (retryDelayS < 0 || retryDelayS > MAX_DELAY_S) {
                return "retry_delay must be 0 to " + MAX_DELAY_S + " seconds (got " + retryDelayS + ")";
            }
            return null;
        }

        private static int intOr(Long v, int fallback, String name) {
            if (v == null) {
                return fallback;
            }
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(name + " is out of range (got " + v + ")");
            }
            return (int) (long) v;
        }
    }

    /** What the queue does next: deliver a batch of {@code count} messages now, or sleep until {@code wakeAtMs} (-1: nothing to wait for). */
    public record Next(int count, long wakeAtMs) {
        public boolean deliver() {
            return count > 0;
        }
    }

    /**
     * A batch is due when {@code maxBatchSize} messages are ready, or when the oldest ready
     * message has waited {@code maxBatchTimeout}; else the queue wakes when that wait ends or when
     * the next delayed message becomes ready, whichever is first.
     *
     * @param ready               messages whose delay is over
     * @param oldestReadySinceMs  when the oldest ready message became ready (ignored when none is)
     * @param nextDelayedReadyMs  when the first still-delayed message becomes ready, or -1
     */
    public static Next next(Settings s, int ready, long oldestReadySinceMs, long nextDelayedReadyMs, long nowMs) {
        if (ready >= s.maxBatchSize()) {
            return new Next(s.maxBatchSize(), -1);
        }
        long batchDueMs = ready > 0 ? oldestReadySinceMs + s.maxBatchTimeoutS() * 1000L : Long.MAX_VALUE;
        if (ready > 0 && nowMs >= batchDueMs) {
            return new Next(ready, -1);
        }
        long wake = Math.min(batchDueMs, nextDelayedReadyMs >= 0 ? nextDelayedReadyMs : Long.MAX_VALUE);
        return new Next(0, wake == Long.MAX_VALUE ? -1 : wake);
    }

    /** What the consumer's handler said about one message, recorded as workerd does (the first call wins). */
    public enum Call { NONE, ACK, RETRY }

    public enum Kind { DELETE, REDELIVER, DEAD_LETTER, DROP }

    /** One message's fate: {@code readyAtMs} is when a REDELIVER message may be delivered again. */
    public record Fate(Kind kind, long readyAtMs) {
    }

    /**
     * The fate of one message of a delivered batch.
     *
     * @param attempts      the delivery just made, counted from 1 ({@code message.attempts})
     * @param own           the message's own ack() or retry() (NONE: neither)
     * @param ownDelayS     delaySeconds of its retry(), or -1
     * @param batch         ackAll() or retryAll() of the batch (NONE: neither)
     * @param batchDelayS   delaySeconds of retryAll(), or -1
     * @param threw         the handler threw or its promise rejected
     */
    public static Fate fate(Settings s, int attempts, Call own, long ownDelayS, Call batch, long batchDelayS, boolean threw, long nowMs) {
        boolean retry;
        if (batch == Call.RETRY || own == Call.RETRY) {
            retry = true; // retryAll() retries every message, as the broker does (an ack() before it included)
        } else if (threw) {
            retry = own != Call.ACK && batch != Call.ACK; // a thrown handler keeps what it acknowledged explicitly
        } else {
            retry = false; // a handler that returned acknowledges every message it did not retry
        }
        if (!retry) {
            return new Fate(Kind.DELETE, -1);
        }
        if (attempts >= s.maxRetries() + 1) {
            return new Fate(s.deadLetterQueue() != null ? Kind.DEAD_LETTER : Kind.DROP, -1);
        }
        long delayS = ownDelayS >= 0 ? ownDelayS : batchDelayS >= 0 ? batchDelayS : s.retryDelayS();
        return new Fate(Kind.REDELIVER, nowMs + delayS * 1000L);
    }

    /** A send's or retry's delaySeconds: null when it is acceptable, else the problem. */
    public static String delayProblem(double delaySeconds) {
        if (Double.isNaN(delaySeconds) || delaySeconds != Math.floor(delaySeconds) || delaySeconds < 0 || delaySeconds > MAX_DELAY_S) {
            return "delaySeconds must be a whole number of seconds from 0 to " + MAX_DELAY_S + " (got " + fmt(delaySeconds) + ")";
        }
        return null;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) && !Double.isInfinite(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
