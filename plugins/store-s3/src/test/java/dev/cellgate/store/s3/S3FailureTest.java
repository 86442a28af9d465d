package dev.cellgate.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The pure decisions: which answers are rejections and which may be retried (the delays are logic/Backoff's). */
class S3FailureTest {

    @Test
    void classifiesStatusAndCode() {
        assertThat(S3Failure.of(503, "SlowDown")).isEqualTo(S3Failure.THROTTLED);
        assertThat(S3Failure.of(429, null)).isEqualTo(S3Failure.THROTTLED);
        assertThat(S3Failure.of(503, "ServiceUnavailable")).isEqualTo(S3Failure.SERVER_ERROR);
        assertThat(S3Failure.of(500, "InternalError")).isEqualTo(S3Failure.SERVER_ERROR);
        assertThat(S3Failure.of(502, null)).isEqualTo(S3Failure.NO_ANSWER);
        assertThat(S3Failure.of(504, "GatewayTimeout")).isEqualTo(S3Failure.NO_ANSWER);
        assertThat(S3Failure.of(412, "PreconditionFailed")).isEqualTo(S3Failure.PRECONDITION_FAILED);
        assertThat(S3Failure.of(409, "ConditionalRequestConflict")).isEqualTo(S3Failure.CONFLICT);
        assertThat(S3Failure.of(404, "NoSuchKey")).isEqualTo(S3Failure.NO_SUCH_KEY);
        assertThat(S3Failure.of(404, "NoSuchBucket")).isEqualTo(S3Failure.REFUSED);
        assertThat(S3Failure.of(403, "AccessDenied")).isEqualTo(S3Failure.REFUSED);
    }

    @Test
    void writesAreRetriedOnlyWhenNoEarlierAttemptCanStillBeRunning() {
        for (S3Failure f : S3Failure.values()) {
            assertThat(f.retryableWrite()).as(f.name()).isEqualTo(f == S3Failure.THROTTLED || f == S3Failure.SERVER_ERROR);
            assertThat(f.mayHaveBeenApplied()).as(f.name()).isEqualTo(f == S3Failure.SERVER_ERROR || f == S3Failure.NO_ANSWER);
        }
        assertThat(S3Failure.SERVER_ERROR.retryableRead()).isTrue();
        assertThat(S3Failure.REFUSED.retryableRead()).isFalse();
        assertThat(S3Failure.PRECONDITION_FAILED.retryableRead()).isFalse();
    }
}
