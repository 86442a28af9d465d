package dev.cellgate.core.spi.bucket;

import java.util.Set;
import org.pf4j.ExtensionPoint;

/**
 * Extension point for bucket back ends, selected by URL scheme. The embedded {@code file}
 * provider is built in; S3 and GCS come as plugins dropped into the plugins directory.
 */
public interface BucketStoreProvider extends ExtensionPoint {

    /** URL schemes this provider opens, lower case (e.g. {@code s3}). */
    Set<String> schemes();

    /** Opens a store; throws {@link BucketException} or {@link IllegalArgumentException} with a clear message. */
    BucketStore open(BucketUrl url, StoreOptions options);
}
