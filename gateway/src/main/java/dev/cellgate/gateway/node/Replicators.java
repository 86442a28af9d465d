package dev.cellgate.gateway.node;

import dev.cellgate.core.plugin.PluginHost;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.replication.Replicator;
import dev.cellgate.core.spi.replication.ReplicatorConfig;
import dev.cellgate.core.spi.replication.ReplicatorProvider;
import java.util.List;
import java.util.concurrent.Executor;

/** Finds the replication plugin (there must be exactly one). */
final class Replicators {
    /** Snapshot once this many bytes of WAL segments piled up since the last snapshot. */
    static final long SNAPSHOT_EVERY_BYTES = 64L * 1024 * 1024;

    private Replicators() {
    }

    /** @param pitrRetentionMs {@code CELLD_PITR_DAYS} in ms (0: off) */
    static Replicator create(PluginHost plugins, BucketStore bucket, Executor io, long pitrRetentionMs) throws StartupException {
        List<ReplicatorProvider> found = plugins.extensions(ReplicatorProvider.class);
        if (found.isEmpty()) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, "no replicator plugin in " + plugins.dir()
                    + " (expected replicator-wal.jar; it holds " + plugins.jarNames() + "): without it no write would reach the bucket");
        }
        if (found.size() > 1) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, "several replicator plugins in " + plugins.dir() + ": "
                    + found.stream().map(ReplicatorProvider::name).toList() + "; keep one");
        }
        return found.get(0).create(new ReplicatorConfig(bucket, io, SNAPSHOT_EVERY_BYTES, pitrRetentionMs, System::currentTimeMillis));
    }
}
