package dev.cellgate.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.store.probe.ProbeResult;
import dev.cellgate.core.store.probe.ProbeStep;
import dev.cellgate.core.store.probe.StorageProbe;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The storage probe on real servers: it accepts S3Proxy on Azurite (atomic conditional writes)
 * and refuses S3Proxy's filesystem back end (If-Match is check-then-write) at the race step.
 */
class S3StorageProbeTest {

    @Test
    void acceptsS3ProxyOnAzurite() {
        try (BucketStore store = S3TestServers.open(S3TestServers.azureEndpoint(), "probe-test-" + UUID.randomUUID())) {
            ProbeResult r = StorageProbe.run(store, "s3-accept");
            assertThat(r.ok()).as(r.summary()).isTrue();
            assertThat(r.steps()).extracting(ProbeStep::name)
                    .containsExactly("create", "reject-create", "cas-update", "reject-stale-cas", "race", "cleanup");
        }
    }

    @Test
    void refusesS3ProxyOnItsFilesystemBackEndEveryTime() {
        // Several independent probes: the refusal must not depend on a lucky interleaving.
        for (int run = 0; run < 3; run++) {
            try (BucketStore store = S3TestServers.open(S3TestServers.filesystemEndpoint(), "probe-test-" + UUID.randomUUID())) {
                ProbeResult r = StorageProbe.run(store, "s3-refuse");
                assertThat(r.ok()).as("probe run %d on the filesystem back end: %s", run, r.summary()).isFalse();
                assertThat(r.failedStep()).get().extracting(ProbeStep::name).isEqualTo("race");
                assertThat(r.summary()).contains(store.url()).contains("'race'");
                // Usually several racers win; sometimes the back end also drops a racing connection.
                assertThat(r.failedStep().get().detail()).containsAnyOf("not atomic", "atomicity cannot be shown");
                // The sequential steps pass: only racing exposes the emulated If-Match.
                assertThat(r.steps()).filteredOn(ProbeStep::ok).extracting(ProbeStep::name)
                        .containsExactly("create", "reject-create", "cas-update", "reject-stale-cas", "cleanup");
            }
        }
    }
}
