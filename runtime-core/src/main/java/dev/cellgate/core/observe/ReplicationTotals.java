package dev.cellgate.core.observe;

import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.spi.replication.ReplicaStats;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Replication counters of the whole node: the replicas attached now plus everything the detached
 * ones did. A replica's counters are final once it detaches, so folding them into the retired sum
 * at that moment keeps the totals monotonic (Prometheus reads a dip in a counter as a restart).
 * Touched on attach, detach and scrape only, never per commit.
 */
public final class ReplicationTotals {
    private final Set<CellReplica> attached = Collections.newSetFromMap(new IdentityHashMap<>());
    private long retiredBytes;
    private long retiredSegments;
    private long retiredSnapshots;

    public synchronized void attached(CellReplica replica) {
        if (replica != null) {
            attached.add(replica);
        }
    }

    /** Call after {@link CellReplica#detach()}: its counters no longer move. */
    public synchronized void detached(CellReplica replica) {
        if (replica != null && attached.remove(replica)) {
            ReplicaStats s = replica.stats();
            retiredBytes += s.bytesUploaded();
            retiredSegments += s.segmentsUploaded();
            retiredSnapshots += s.snapshots();
        }
    }

    /** Uploaded bytes, segments and snapshots since start; pending bytes of the attached replicas now. */
    public synchronized ReplicaStats snapshot() {
        long bytes = retiredBytes;
        long segments = retiredSegments;
        long snapshots = retiredSnapshots;
        long pending = 0;
        for (CellReplica r : attached) {
            ReplicaStats s = r.stats();
            bytes += s.bytesUploaded();
            segments += s.segmentsUploaded();
            snapshots += s.snapshots();
            pending += s.pendingBytes();
        }
        return new ReplicaStats(bytes, segments, pending, snapshots);
    }

    public synchronized int attachedCount() {
        return attached.size();
    }
}
