package dev.cellgate.core.spi.replication;

import dev.cellgate.core.spi.bucket.BucketStore;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * @param store              the fleet bucket
 * @param ioExecutor         where blocking file work (reading WAL frames, building a restored file) may run
 * @param snapshotEveryBytes take a snapshot once this many bytes of segments accumulated since the last one
 * @param pitrRetentionMs    how far back point-in-time recovery reaches ({@code CELLD_PITR_DAYS}); 0: off,
 *                           history nobody's current lineage needs is collected at once
 * @param clock              wall clock in epoch ms: stamps commit groups and places the retention window
 */
public record ReplicatorConfig(BucketStore store, Executor ioExecutor, long snapshotEveryBytes, long pitrRetentionMs,
                               LongSupplier clock) {
    public ReplicatorConfig {
        if (pitrRetentionMs < 0 || clock == null) {
            throw new IllegalArgumentException("pitrRetentionMs must be 0 or positive and a clock given, got " + pitrRetentionMs);
        }
    }

    /** Without point-in-time recovery (retention 0), on the system clock. */
    public ReplicatorConfig(BucketStore store, Executor ioExecutor, long snapshotEveryBytes) {
        this(store, ioExecutor, snapshotEveryBytes, 0, System::currentTimeMillis);
    }
}
