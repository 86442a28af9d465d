package dev.cellgate.store.gcs;

import com.google.cloud.BaseServiceException;

/**
 * What a failed GCS request tells about the object, from its HTTP status alone. Only answers that
 * prove nothing was written become clean rejections; only answers that prove the server did no
 * work (429) are retried for writes.
 */
enum GcsFailure {
    /** 429: rate limited before any work. */
    THROTTLED,
    /** 412: ifGenerationMatch did not hold; nothing was written. */
    PRECONDITION_FAILED,
    /** 404: no such object (or bucket). */
    NOT_FOUND,
    /** 408, 5xx: the request may have been carried out. */
    SERVER_ERROR,
    /** No HTTP answer (timeout, connection reset: the client reports code 0): may have been carried out. */
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
        if (status == 408 || status >= 500) {
            return SERVER_ERROR;
        }
        if (status <= 0) {
            return NO_ANSWER;
        }
        return REFUSED;
    }

    boolean retryableRead() {
        return this == THROTTLED || this == SERVER_ERROR || this == NO_ANSWER;
    }

    /** A re-sent write whose first attempt landed could report a rejection for its own success. */
    boolean retryableWrite() {
        return this == THROTTLED;
    }

    static String describe(Throwable t) {
        if (t instanceof BaseServiceException e) {
            return "HTTP " + e.getCode() + (e.getReason() == null ? "" : " " + e.getReason()) + ": " + e.getMessage();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
