package dev.cellgate.store.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.BucketUrl;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.core.store.probe.ProbeResult;
import dev.cellgate.core.store.probe.ProbeStep;
import dev.cellgate.core.store.probe.StorageProbe;
import dev.cellgate.store.gcs.emulator.GcsEmulator;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The probe through the GCS client: it accepts the emulator, and refuses the emulator's broken
 * check-then-write variant, which proves the emulator-based checks can fail.
 */
class GcsStorageProbeTest {

    private static BucketStore open(GcsEmulator emulator) {
        return new GcsBucketStoreProvider().open(BucketUrl.parse("gs://probe-bucket/fleet-a"),
                new StoreOptions(Map.of("CELLD_GCS_ENDPOINT", emulator.endpoint())));
    }

    @Test
    void acceptsTheAtomicEmulator() throws Exception {
        try (GcsEmulator emulator = GcsEmulator.start(0).createBucket("probe-bucket"); BucketStore store = open(emulator)) {
            ProbeResult r = StorageProbe.run(store, "gcs-accept");
            assertThat(r.ok()).as(r.summary()).isTrue();
        }
    }

    @Test
    void refusesTheCheckThenWriteEmulator() throws Exception {
        try (GcsEmulator emulator = GcsEmulator.startNonAtomic(0).createBucket("probe-bucket"); BucketStore store = open(emulator)) {
            ProbeResult r = StorageProbe.run(store, "gcs-refuse");
            assertThat(r.ok()).isFalse();
            assertThat(r.failedStep()).get().extracting(ProbeStep::name).isEqualTo("race");
            assertThat(r.summary()).contains("gs://probe-bucket/fleet-a").contains("not atomic");
        }
    }
}
