package dev.cellgate.store.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.bucket.BucketException;
import dev.cellgate.core.spi.bucket.BucketUrl;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.store.gcs.emulator.GcsEmulator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Failure answers through the real client: throttling is retried within a bound and the library's
 * own retries never add to it; a write whose fate is unknown is ambiguous and never re-sent.
 */
class GcsFaultHandlingTest {
    private static final int ATTEMPTS = 4;
    private static final byte[] BODY = "x".getBytes(StandardCharsets.UTF_8);
    private GcsEmulator emulator;
    private GcsBucketStore store;

    @BeforeEach
    void start() throws Exception {
        emulator = GcsEmulator.start(0).createBucket("faulty-bucket");
        GcsStoreConfig c = GcsStoreConfig.from(BucketUrl.parse("gs://faulty-bucket/p"),
                new StoreOptions(Map.of("CELLD_GCS_ENDPOINT", emulator.endpoint()))).withLimits(Duration.ofSeconds(5), ATTEMPTS);
        store = new GcsBucketStore(c);
    }

    @AfterEach
    void stop() {
        store.close();
        emulator.close();
    }

    @Test
    void throttledWriteIsRetriedUpToTheBoundThenAmbiguous() throws Exception {
        emulator.injectFaults(429, 429, 429, 429, 429, 429);
        long before = emulator.requests();
        WriteOutcome o = store.putIfAbsent("k", BODY).get(30, TimeUnit.SECONDS);
        assertThat(o).isInstanceOf(WriteOutcome.Ambiguous.class);
        assertThat(emulator.requests() - before).isEqualTo(ATTEMPTS);
    }

    @Test
    void throttlingThatEndsLetsTheWriteThrough() throws Exception {
        emulator.injectFaults(429, 429);
        long before = emulator.requests();
        assertThat(store.putIfAbsent("k", BODY).get(30, TimeUnit.SECONDS)).isInstanceOf(WriteOutcome.Written.class);
        assertThat(emulator.requests() - before).isEqualTo(3);
    }

    @Test
    void aServerErrorOnAWriteIsRetriedAndTheRetrysSuccessIsWritten() throws Exception {
        emulator.injectFaults(503);
        long before = emulator.requests();
        assertThat(store.putIfAbsent("k", BODY).get(30, TimeUnit.SECONDS)).isInstanceOf(WriteOutcome.Written.class);
        assertThat(emulator.requests() - before).isEqualTo(2);
    }

    @Test
    void aRejectionAfterAServerErrorIsAmbiguousNeverRejected() throws Exception {
        assertThat(store.put("k", BODY).get(30, TimeUnit.SECONDS).written()).isTrue();
        emulator.injectFaults(500);
        long before = emulator.requests();
        WriteOutcome o = store.putIfAbsent("k", BODY).get(30, TimeUnit.SECONDS);
        assertThat(o).as("the 500 may have hidden our own write: the retry's 412 proves nothing").isInstanceOf(WriteOutcome.Ambiguous.class);
        assertThat(((WriteOutcome.Ambiguous) o).reason()).contains("may have been applied");
        assertThat(emulator.requests() - before).isEqualTo(2);
    }

    @Test
    void aGatewaysErrorOnAWriteIsAmbiguousAndNeverResent() throws Exception {
        emulator.injectFaults(504);
        long before = emulator.requests();
        assertThat(store.putIfAbsent("k", BODY).get(30, TimeUnit.SECONDS)).isInstanceOf(WriteOutcome.Ambiguous.class);
        assertThat(emulator.requests() - before).isEqualTo(1);
    }

    @Test
    void readsRetryServerErrors() throws Exception {
        assertThat(store.put("k", BODY).get(30, TimeUnit.SECONDS).written()).isTrue();
        emulator.injectFaults(503, 500);
        long before = emulator.requests();
        assertThat(store.get("k").get(30, TimeUnit.SECONDS)).get()
                .satisfies(o -> assertThat(new String(o.bytes(), StandardCharsets.UTF_8)).isEqualTo("x"));
        assertThat(emulator.requests() - before).as("two failed downloads, one good; no hidden library retries").isEqualTo(3);
    }

    @Test
    void aMissingBucketIsAnErrorNamingTheUrlNotARejection() {
        GcsStoreConfig c = GcsStoreConfig.from(BucketUrl.parse("gs://no-such-bucket"),
                new StoreOptions(Map.of("CELLD_GCS_ENDPOINT", emulator.endpoint())));
        try (GcsBucketStore missing = new GcsBucketStore(c)) {
            assertThatThrownBy(() -> missing.putIfAbsent("k", BODY).get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(BucketException.class)
                    .hasMessageContaining("gs://no-such-bucket").hasMessageContaining("404");
        }
    }

    @Test
    void aVersionFromElsewhereIsRefusedClearly() {
        assertThatThrownBy(() -> store.putIfVersion("k", BODY, "\"an-s3-etag\"").get())
                .cause().isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a version this store handed out");
    }

    @Test
    void badUrlsAndEndpointsAreRefusedByName() {
        assertThatThrownBy(() -> GcsStoreConfig.from(BucketUrl.parse("gs://UPPER"), StoreOptions.none()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a valid GCS bucket name");
        assertThatThrownBy(() -> GcsStoreConfig.from(BucketUrl.parse("gs://ok-bucket"),
                new StoreOptions(Map.of("CELLD_GCS_ENDPOINT", "ftp://x")))).hasMessageContaining("CELLD_GCS_ENDPOINT");
    }
}
