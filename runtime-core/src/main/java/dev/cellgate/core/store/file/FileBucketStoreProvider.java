package dev.cellgate.core.store.file;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.BucketStoreProvider;
import dev.cellgate.core.spi.bucket.BucketUrl;
import dev.cellgate.core.spi.bucket.StoreOptions;
import java.nio.file.Path;
import java.util.Set;

/**
 * Opens {@code file:///abs/path} and {@code file://./relative/path} buckets. Built in (not a
 * plugin): it is the embedded default. {@code CELLD_FILE_FSYNC=0} (store option) skips fsync,
 * for tests and benchmarks on throwaway data.
 */
public final class FileBucketStoreProvider implements BucketStoreProvider {
    public static final String FSYNC_OPTION = "CELLD_FILE_FSYNC";

    @Override
    public Set<String> schemes() {
        return Set.of("file");
    }

    @Override
    public BucketStore open(BucketUrl url, StoreOptions options) {
        boolean fsync = !options.get(FSYNC_OPTION).orElse("1").equals("0");
        return new FileBucketStore(url.raw(), Path.of(url.bucket()), fsync);
    }
}
