package dev.cellgate.core.spi.replication;

import org.pf4j.ExtensionPoint;

/** Extension point for the replication strategy that makes cell databases durable in the bucket. */
public interface ReplicatorProvider extends ExtensionPoint {

    /** A short name for logs and {@code CELLD_REPLICATOR} (e.g. {@code wal}). */
    String name();

    Replicator create(ReplicatorConfig config);
}
