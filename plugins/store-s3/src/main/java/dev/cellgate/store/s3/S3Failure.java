package dev.cellgate.store.s3;

import dev.cellgate.core.observe.Errors;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;

/**
 * What a failed S3 request tells about the object, decided from the status and error code alone.
 * The decision is what keeps ownership safe: only answers that prove nothing was written may
 * become a clean rejection, and only answers that prove the server did no work may be retried.
 */
enum S3Failure {
    /** 429, or 503 SlowDown and its kin: the request was refused before any work; safe to retry. */
    THROTTLED,
    /** 412: a precondition (If-None-Match / If-Match) did not hold; nothing was written. */
    PRECONDITION_FAILED,
    /** 409 (ConditionalRequestConflict, OperationAborted): a concurrent conditional write won; nothing was written. */
    CONFLICT,
    /** 404 NoSuchKey (also what AWS answers to If-Match on a missing object). */
    NO_SUCH_KEY,
    /** 500, 503 and the server's other own 5xx (not throttling): the request may have been carried
     * out, but the answer ended the server's work on it, so nothing of it is still in flight. */
    SERVER_ERROR,
    /** No answer in time, the connection failed, or a gateway's 502/504 answered for the server: the
     * request may have been carried out, and may even still be running. */
    NO_ANSWER,
    /** Any other 4xx (denied, missing bucket, bad request): a configuration problem, nothing was written. */
    REFUSED;

    private static final Set<String> THROTTLE_CODES = Set.of(
            "SlowDown", "Throttling", "ThrottlingException", "TooManyRequests", "RequestThrottled",
            "RequestLimitExceeded", "RequestThrottledException", "ProvisionedThroughputExceededException");

    static S3Failure of(Throwable t) {
        t = Errors.unwrap(t);
        if (t instanceof AwsServiceException e) {
            String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
            return of(e.statusCode(), code);
        }
        if (t instanceof ApiCallAttemptTimeoutException || t instanceof ApiCallTimeoutException) {
            return NO_ANSWER;
        }
        return NO_ANSWER; // SdkClientException, I/O errors: the request may have reached the server
    }

    /** The pure decision on an HTTP status and an S3 error code (which may be null). */
    static S3Failure of(int status, String code) {
        if (status == 429 || (code != null && THROTTLE_CODES.contains(code))) {
            return THROTTLED;
        }
        if (status == 412) {
            return PRECONDITION_FAILED;
        }
        if (status == 409) {
            return CONFLICT;
        }
        if (status == 404 && (code == null || code.equals("NoSuchKey"))) {
            return NO_SUCH_KEY;
        }
        if (status == 502 || status == 504) {
            return NO_ANSWER; // an intermediary gave up on the server, which may still be working on it
        }
        if (status >= 500) {
            return SERVER_ERROR;
        }
        return REFUSED;
    }

    /** Reads, listings and deletes repeat harmlessly: retry throttling and server errors alike. */
    boolean retryableRead() {
        return this == THROTTLED || this == SERVER_ERROR || this == NO_ANSWER;
    }

    /**
     * Writes are retried when the server proved it did nothing (throttling) or when its own answer
     * ended its work (a server error): the retry cannot race the first attempt, and its success
     * proves the write. A lost answer is never retried: the first attempt may still land after the
     * retry. After a server error a rejection may be against the first attempt's own write, so
     * the caller must then report the write ambiguous ({@link #mayHaveBeenApplied()}).
     */
    boolean retryableWrite() {
        return this == THROTTLED || this == SERVER_ERROR;
    }

    /** An attempt that failed this way may have been applied: a later rejection proves nothing. */
    boolean mayHaveBeenApplied() {
        return this == SERVER_ERROR || this == NO_ANSWER;
    }

    static String describe(Throwable t) {
        t = Errors.unwrap(t);
        if (t instanceof AwsServiceException e) {
            String code = e.awsErrorDetails() == null ? "?" : e.awsErrorDetails().errorCode();
            return "HTTP " + e.statusCode() + " " + code + ": " + (e.awsErrorDetails() == null ? e.getMessage()
                    : e.awsErrorDetails().errorMessage());
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
