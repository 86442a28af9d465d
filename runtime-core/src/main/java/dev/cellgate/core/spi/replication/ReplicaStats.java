package dev.cellgate.core.spi.replication;

/** Counters of one replica, for metrics. */
public record ReplicaStats(long bytesUploaded, long segmentsUploaded, long pendingBytes, long snapshots) {
}
