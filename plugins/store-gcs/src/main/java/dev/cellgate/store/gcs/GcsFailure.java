package dev.cellgate.store.gcs;

import com.google.cloud.BaseServiceException;

/**
 * What a failed GCS request tells about the object, from its HTTP status alone. Only answers that
 * prove nothing was written become clean rejections; writes are retried only when no earlier attempt
 * can still be running (429, and the server's own 5xx), the same rule as the S3 store's.
 */
enum GcsFailure {
    /** 429: rate limited before any work. */
    THROTTLED,
    /** 412: ifGenerationMatch did not hold; nothing was written. */
    PRECONDITION_FAILED,
    /** 404: no such object (or bucket). */
    NOT_FOUND,
    /** 500, 503 and the server's other own 5xx: may have been carried out, but nothing of it still runs. */
    SERVER_ERROR,
    /** No HTTP answer (timeout, connection reset: the client reports code 0), or a 408/502/504 that
     * some intermediary gave: may have been carried out, and may still be running. */
    NO_ANSWER,
    /** Other 4xx (401, 403, 400): configuration or request problem; nothing was written. */
    REFUSED;

    static GcsFailure of(Throwable t) {
        if (t instanceof BaseServiceException e) {
            return of(e.getCode());
        }
        return NO_ANSWER;
    }

    static GcsFailure of(int status) {
        if (status == 429) {
            return THROTTLED;
        }
        if (status == 412) {
            return PRECONDITION_FAILED;
        }
        if (status == 404) {
            return NOT_FOUND;
        }
        if (status <= 0 || status == 408 || status == 502 || status == 504) {
            return NO_ANSWER;
        }
        if (status >= 500) {
            return SERVER_ERROR;
        }
        return REFUSED;
    }

    boolean retryableRead() {
        return this == THROTTLED || this == SERVER_ERROR || this == NO_ANSWER;
    }

    /** A lost answer is never re-sent (the first attempt may land after the retry); after a server
     * error a later rejection may be against the first attempt's own write ({@link #mayHaveBeenApplied}). */
    boolean retryableWrite() {
        return this == THROTTLED || this == SERVER_ERROR;
    }

    boolean mayHaveBeenApplied() {
        return this == SERVER_ERROR || this == NO_ANSWER;
    }

    static String describe(Throwable t) {
        if (t instanceof BaseServiceException e) {
            return "HTTP " + e.getCode() + (e.getReason() == null ? "" : " " + e.getReason()) + ": " + e.getMessage();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
