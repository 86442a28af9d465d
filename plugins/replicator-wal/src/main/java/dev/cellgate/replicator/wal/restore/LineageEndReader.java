package dev.cellgate.replicator.wal.restore;

import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.replicator.wal.bucket.BucketReads;
import dev.cellgate.replicator.wal.format.LineageEnd;
import dev.cellgate.replicator.wal.format.ObjectKey;
import dev.cellgate.replicator.wal.format.Position;
import dev.cellgate.replicator.wal.format.Segment;
import dev.cellgate.replicator.wal.format.SnapshotManifest;
import java.util.concurrent.CompletableFuture;

/**
 * The end point of a planned lineage without restoring it: the last segment's header (or the
 * snapshot's manifest). Used to check a kept local copy against the bucket.
 */
public final class LineageEndReader {
    private LineageEndReader() {
    }

    public static CompletableFuture<LineageEnd> read(String scope, BucketReads reads, RestorePlan plan) {
        CompletableFuture<Position> end;
        if (!plan.segments().isEmpty()) {
            ObjectKey last = plan.segments().get(plan.segments().size() - 1);
            end = reads.require(last.key()).thenApply(bytes -> {
                Segment s = SegmentChecks.decodeSegment(scope, last, bytes);
                return new Position(last.epoch(), s.header().maxTxid(), s.header().postChecksum(),
                        s.header().commitPages(), s.header().pageSize());
            });
        } else if (plan.manifest() != null) {
            ObjectKey mk = plan.manifest();
            end = reads.require(mk.key()).thenApply(bytes -> {
                try {
                    return SnapshotManifest.fromBytes(bytes, "snapshot manifest " + mk.key()).position();
                } catch (IllegalArgumentException e) {
                    throw new RestoreException("cell " + scope + ": " + e.getMessage(), e);
                }
            });
        } else {
            end = CompletableFuture.completedFuture(Position.empty());
        }
        return end.thenApply(p -> new LineageEnd(p, plan.snapshot(), plan.spans(), plan.segments().size(), 0));
    }
}
