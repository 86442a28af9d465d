package dev.cellgate.store.gcs;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.BucketStoreProvider;
import dev.cellgate.core.spi.bucket.BucketUrl;
import dev.cellgate.core.spi.bucket.StoreOptions;
import java.util.Set;
import org.pf4j.Extension;

/**
 * Opens {@code gs://bucket[/prefix]} with Application Default Credentials. The option
 * {@code CELLD_GCS_ENDPOINT} points the client at another JSON API host (an emulator), unauthenticated.
 */
@Extension
public final class GcsBucketStoreProvider implements BucketStoreProvider {

    @Override
    public Set<String> schemes() {
        return Set.of("gs");
    }

    @Override
    public BucketStore open(BucketUrl url, StoreOptions options) {
        return new GcsBucketStore(GcsStoreConfig.from(url, options));
    }
}
