package dev.cellgate.store.gcs;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.BucketStoreContract;
import dev.cellgate.core.spi.bucket.BucketUrl;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.store.gcs.emulator.GcsEmulator;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The shared contract, races included, through the real google-cloud-storage client against the emulator. */
class GcsBucketStoreContractTest extends BucketStoreContract {
    static GcsEmulator emulator;

    @BeforeAll
    static void startEmulator() throws Exception {
        emulator = GcsEmulator.start(0).createBucket("contract-bucket");
    }

    @AfterAll
    static void stopEmulator() {
        emulator.close();
    }

    @Override
    protected BucketStore openStore(String prefix) {
        return new GcsBucketStoreProvider().open(BucketUrl.parse("gs://contract-bucket/" + prefix),
                new StoreOptions(Map.of("CELLD_GCS_ENDPOINT", emulator.endpoint())));
    }

    @Override
    protected boolean reportsServerTime() {
        return true;
    }
}
