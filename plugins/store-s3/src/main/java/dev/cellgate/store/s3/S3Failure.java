package dev.cellgate.store.s3;

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
    /** 5xx other than throttling: the request may have been carried out. */
    SERVER_ERROR,
    /** No answer in time, or the connection failed: the request may have been carried out. */
    NO_ANSWER,
    /** Any other 4xx (denied, missing bucket, bad request): a configuration problem, nothing was written. */
    REFUSED;

    private static final Set<String> THROTTLE_CODES = Set.of(
            "SlowDown", "Throttling", "ThrottlingException", "TooManyRequests", "RequestThrottled",
            "RequestLimitExceeded", "RequestThrottledException", "ProvisionedThroughputExceededException");

    static S3Failure of(Throwable t) {
        t = Backoff.unwrap(t);
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
        if (status >= 500) {
            return SERVER_ERROR;
        }
        return REFUSED;
    }

    /** Reads, listings and deletes repeat harmlessly: retry throttling and server errors alike. */
    boolean retryableRead() {
        return this == THROTTLED || this == SERVER_ERROR || this == NO_ANSWER;
    }

    /** Writes are retried only when the server proved it did nothing: a retried write after a
     * lost answer could report a rejection for its own earlier success. */
    boolean retryableWrite() {
        return this == THROTTLED;
    }

    static String describe(Throwable t) {
        t = Backoff.unwrap(t);
        if (t instanceof AwsServiceException e) {
            String code = e.awsErrorDetails() == null ? "?" : e.awsErrorDetails().errorCode();
            return "HTTP " + e.statusCode() + " " + code + ": " + (e.awsErrorDetails() == null ? e.getMessage()
                    : e.awsErrorDetails().errorMessage());
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
