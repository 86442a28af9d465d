package dev.cellgate.core.spi.replication;

import dev.cellgate.core.spi.bucket.BucketStore;
import java.util.concurrent.Executor;

/**
 * @param store             the fleet bucket
 * @param ioExecutor        where blocking file work (reading WAL frames, building a restored file) may run
 * @param snapshotEveryBytes take a snapshot once this many bytes of segments accumulated since the last one
 */
public record ReplicatorConfig(BucketStore store, Executor ioExecutor, long snapshotEveryBytes) {
}
