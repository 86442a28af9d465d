package dev.cellgate.store.s3;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.BucketStoreProvider;
import dev.cellgate.core.spi.bucket.BucketUrl;
import dev.cellgate.core.spi.bucket.StoreOptions;
import java.util.Set;
import org.pf4j.Extension;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/**
 * Opens {@code s3://bucket[/prefix]}. Options: {@code S3_ENDPOINT} (an S3-compatible server;
 * switches to path-style addressing) and {@code AWS_REGION}. Credentials come from the standard
 * AWS chain (environment, profile, container or instance role).
 */
@Extension
public final class S3BucketStoreProvider implements BucketStoreProvider {

    @Override
    public Set<String> schemes() {
        return Set.of("s3");
    }

    @Override
    public BucketStore open(BucketUrl url, StoreOptions options) {
        S3StoreConfig config = S3StoreConfig.from(url, options);
        return new S3BucketStore(config, DefaultCredentialsProvider.builder().build());
    }
}
