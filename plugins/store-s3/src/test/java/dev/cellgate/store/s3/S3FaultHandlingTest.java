package dev.cellgate.store.s3;

import static dev.cellgate.store.s3.FaultyS3Server.Answer.error;
import static dev.cellgate.store.s3.FaultyS3Server.Answer.ok;
import static dev.cellgate.store.s3.FaultyS3Server.Answer.silence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.Backoff;
import dev.cellgate.core.spi.bucket.BucketException;
import dev.cellgate.core.spi.bucket.BucketUrl;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * How the S3 store turns failures into outcomes, against a scripted failing server: throttling is
 * retried a bounded number of times and never multiplied by SDK retries; a write whose fate is
 * unknown is re-sent only after the server's own answer (5xx) ended its work, and a rejection after
 * that is ambiguous, never clean; precondition answers are clean rejections.
 */
class S3FaultHandlingTest {
    private static final int ATTEMPTS = 4;
    private static final byte[] BODY = "x".getBytes(StandardCharsets.UTF_8);

    private static S3BucketStore open(FaultyS3Server server) {
        S3StoreConfig c = S3StoreConfig.from(BucketUrl.parse("s3://faulty-bucket/p"),
                        new StoreOptions(Map.of("S3_ENDPOINT", server.endpoint(), "AWS_REGION", "us-east-1")))
                .withBackoff(new Backoff(1, 20, ATTEMPTS))
                // The attempt timeout is what the silent server trips; it is not tighter because a fresh JVM's
                // first SDK request alone took more than 700 ms on a busy 2-core box (read as a timeout).
                .withTimeouts(Duration.ofSeconds(2), Duration.ofMillis(2_500));
        return new S3BucketStore(c, StaticCredentialsProvider.create(AwsBasicCredentials.create("k", "s")));
    }

    @Test
    void throttledWriteIsRetriedUpToTheBoundThenAmbiguous() throws Exception {
        try (FaultyS3Server s = new FaultyS3Server(error(503, "SlowDown")); S3BucketStore store = open(s)) {
            WriteOutcome o = store.putIfAbsent("k", BODY).get(30, TimeUnit.SECONDS);
            assertThat(o).isInstanceOf(WriteOutcome.Ambiguous.class);
            assertThat(((WriteOutcome.Ambiguous) o).reason()).contains("throttled");
            assertThat(s.requests()).as("one logical write, bounded attempts, no SDK retries on top").isEqualTo(ATTEMPTS);
        }
    }

    @Test
    void throttlingThatEndsLetsTheWriteThrough() throws Exception {
        try (FaultyS3Server s = new FaultyS3Server(error(429, "TooManyRequests"), error(503, "SlowDown"), ok(""));
             S3BucketStore store = open(s)) {
            WriteOutcome o = store.putIfVersion("k", BODY, "\"v1\"").get(30, TimeUnit.SECONDS);
            assertThat(o).isInstanceOf(WriteOutcome.Written.class);
            assertThat(o.versionOrNull()).isEqualTo("\"etag-2\""); // (the answer also carries the server's Date)
            assertThat(s.requests()).isEqualTo(3);
        }
    }

    @Test
    void aServerErrorOnAWriteIsRetriedAndTheRetrysSuccessIsWritten() throws Exception {
        // S3 (and S3Proxy over Azurite, seen in CI) answers 500 InternalError now and then: the answer ends
        // the server's work, so a retry cannot race the first attempt, and a success proves the write.
        try (FaultyS3Server s = new FaultyS3Server(error(500, "InternalError"), ok("")); S3BucketStore store = open(s)) {
            WriteOutcome o = store.putIfAbsent("k", BODY).get(30, TimeUnit.SECONDS);
            assertThat(o).isInstanceOf(WriteOutcome.Written.class);
            assertThat(s.requests()).isEqualTo(2);
        }
    }

    @Test
    void aRejectionAfterAServerErrorIsAmbiguousNeverRejected() throws Exception {
        // The first attempt may have been applied: the retry's 412 may be against our own write.
        try (FaultyS3Server s = new FaultyS3Server(error(500, "InternalError"), error(412, "PreconditionFailed"));
             S3BucketStore store = open(s)) {
            WriteOutcome o = store.putIfAbsent("k", BODY).get(30, TimeUnit.SECONDS);
            assertThat(o).isInstanceOf(WriteOutcome.Ambiguous.class);
            assertThat(((WriteOutcome.Ambiguous) o).reason()).contains("500").contains("may have been applied");
            assertThat(s.requests()).isEqualTo(2);
        }
        try (FaultyS3Server s = new FaultyS3Server(error(503, "ServiceUnavailable"), error(409, "ConditionalRequestConflict"));
             S3BucketStore store = open(s)) {
            assertThat(store.putIfVersion("k", BODY, "\"v\"").get(30, TimeUnit.SECONDS)).isInstanceOf(WriteOutcome.Ambiguous.class);
            assertThat(s.requests()).isEqualTo(2);
        }
    }

    @Test
    void serverErrorsThatLastAreAmbiguousAfterTheBound() throws Exception {
        try (FaultyS3Server s = new FaultyS3Server(error(500, "InternalError")); S3BucketStore store = open(s)) {
            assertThat(store.put("k", BODY).get(30, TimeUnit.SECONDS)).isInstanceOf(WriteOutcome.Ambiguous.class);
            assertThat(s.requests()).isEqualTo(ATTEMPTS);
        }
    }

    @Test
    void aGatewaysErrorIsAmbiguousAndNeverResent() throws Exception {
        // 502/504 come from something in front of the server, which may still be carrying the write out.
        for (int status : new int[] {502, 504}) {
            try (FaultyS3Server s = new FaultyS3Server(error(status, "BadGateway")); S3BucketStore store = open(s)) {
                assertThat(store.putIfAbsent("k", BODY).get(30, TimeUnit.SECONDS)).isInstanceOf(WriteOutcome.Ambiguous.class);
                assertThat(s.requests()).as("HTTP " + status).isEqualTo(1);
            }
        }
    }

    @Test
    void unansweredWriteTimesOutAmbiguousAndIsNeverResent() throws Exception {
        try (FaultyS3Server s = new FaultyS3Server(silence()); S3BucketStore store = open(s)) {
            WriteOutcome o = store.putIfVersion("k", BODY, "\"v\"").get(30, TimeUnit.SECONDS);
            assertThat(o).isInstanceOf(WriteOutcome.Ambiguous.class);
            assertThat(s.requests()).isEqualTo(1);
        }
    }

    @Test
    void preconditionAndConflictAnswersAreCleanRejections() throws Exception {
        try (FaultyS3Server s = new FaultyS3Server(error(412, "PreconditionFailed"), error(409, "ConditionalRequestConflict"),
                error(404, "NoSuchKey"));
             S3BucketStore store = open(s)) {
            assertThat(store.putIfAbsent("k", BODY).get()).isInstanceOf(WriteOutcome.Rejected.class);
            assertThat(store.putIfVersion("k", BODY, "\"v\"").get()).isInstanceOf(WriteOutcome.Rejected.class);
            assertThat(store.putIfVersion("k", BODY, "\"v\"").get()).isInstanceOf(WriteOutcome.Rejected.class);
            assertThat(s.requests()).isEqualTo(3);
        }
    }

    @Test
    void readsRetryServerErrorsButNotRefusals() throws Exception {
        try (FaultyS3Server s = new FaultyS3Server(error(503, "SlowDown"), error(500, "InternalError"), ok("hello"));
             S3BucketStore store = open(s)) {
            var got = store.get("k").get(30, TimeUnit.SECONDS).orElseThrow();
            assertThat(new String(got.bytes(), StandardCharsets.UTF_8)).isEqualTo("hello");
            assertThat(got.version()).isEqualTo("\"etag-2\"");
            assertThat(s.requests()).isEqualTo(3);
        }
        try (FaultyS3Server s = new FaultyS3Server(error(403, "AccessDenied")); S3BucketStore store = open(s)) {
            assertThatThrownBy(() -> store.get("k").get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(BucketException.class)
                    .hasMessageContaining("s3://faulty-bucket/p").hasMessageContaining("AccessDenied");
            assertThat(s.requests()).isEqualTo(1);
        }
    }

    @Test
    void aMissingObjectReadsAsEmpty() throws Exception {
        try (FaultyS3Server s = new FaultyS3Server(error(404, "NoSuchKey")); S3BucketStore store = open(s)) {
            assertThat(store.get("k").get(30, TimeUnit.SECONDS)).isEmpty();
            assertThat(s.requests()).isEqualTo(1);
        }
    }
}
