package dev.cellgate.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The pure decisions: which answers are rejections, which may be retried, and the backoff bounds. */
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

    @Test
    void backoffDoublesUpToItsCapAndJitterStaysBelowTheCeiling() {
        Backoff b = new Backoff(10, Duration.ofMillis(100), Duration.ofSeconds(1));
        assertThat(b.ceiling(2)).isEqualTo(Duration.ofMillis(100));
        assertThat(b.ceiling(3)).isEqualTo(Duration.ofMillis(200));
        assertThat(b.ceiling(5)).isEqualTo(Duration.ofMillis(800));
        assertThat(b.ceiling(6)).isEqualTo(Duration.ofSeconds(1));
        assertThat(b.ceiling(60)).isEqualTo(Duration.ofSeconds(1));
        Random r = new Random(1);
        for (int n = 2; n < 40; n++) {
            Duration d = b.delay(n, r);
            assertThat(d).isBetween(Duration.ZERO, b.ceiling(n));
        }
    }
}
