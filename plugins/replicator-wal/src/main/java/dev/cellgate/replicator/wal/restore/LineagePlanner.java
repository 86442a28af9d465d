package dev.cellgate.replicator.wal.restore;

import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.replicator.wal.format.BaseRecord;
import dev.cellgate.replicator.wal.format.ObjectKey;
import dev.cellgate.replicator.wal.format.SnapshotRef;
import dev.cellgate.replicator.wal.format.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decides which objects rebuild a lineage: pure, no I/O.
 *
 * <p>The lineage of the tip epoch is: the newest snapshot the tip itself wrote, or else the
 * snapshot its pin names (or an empty database), then the pin's spans, each bounded by the txid
 * where the next epoch took over, then every contiguous segment of the tip. Bounding each older
 * epoch's part is what makes a stale owner's late segments invisible: they lie past the bound.
 *
 * <p>Within a part, segments chain by txid: from the current txid, take the segment starting right
 * after it that reaches furthest without crossing the bound (an l1 compaction over its l0s). No such
 * segment before the bound is a gap.
 */
public final class LineagePlanner {
    private LineagePlanner() {
    }

    public static RestorePlan plan(String scope, LineageListing listing, long tip, BaseRecord base) {
        LineageListing.EpochObjects tipObjects = listing.epoch(tip);
        List<Span> parts = new ArrayList<>();
        SnapshotRef snapshot;
        ObjectKey manifest;
        long pinCheck;
        Map.Entry<Long, ObjectKey> own = tipObjects.manifests().lastEntry();
        if (own != null) {
            if (own.getKey() < base.parent().txid()) {
                throw new RestoreException("cell " + scope + ": snapshot " + own.getValue().key() + " at txid " + own.getKey()
                        + " lies before the pin of e" + tip + " (txid " + base.parent().txid() + ")");
            }
            snapshot = new SnapshotRef(tip, own.getKey());
            manifest = own.getValue();
            pinCheck = -1;
            parts.add(new Span(tip, own.getKey(), Long.MAX_VALUE));
        } else {
            snapshot = base.snapshot();
            manifest = null;
            if (snapshot != null) {
                manifest = listing.epoch(snapshot.epoch()).manifests().get(snapshot.txid());
                if (manifest == null) {
                    throw new RestoreException("cell " + scope + ": the pin of e" + tip + " starts from the snapshot of e"
                            + snapshot.epoch() + " at txid " + snapshot.txid() + ", which is missing from the bucket");
                }
            }
            pinCheck = base.parent().txid();
            parts.addAll(base.spans());
            parts.add(new Span(tip, base.parent().txid(), Long.MAX_VALUE));
        }
        List<ObjectKey> chain = new ArrayList<>();
        List<Span> spans = new ArrayList<>();
        long cur = snapshot == null ? 0 : snapshot.txid();
        for (Span part : parts) {
            long start = cur;
            cur = follow(scope, listing.epoch(part.epoch()).segments(), part, cur, chain);
            if (cur > start) {
                spans.add(new Span(part.epoch(), start, cur));
            }
        }
        return new RestorePlan(tip, base, snapshot, manifest, chain, spans, cur, pinCheck);
    }

    private static long follow(String scope, List<ObjectKey> segments, Span part, long cur, List<ObjectKey> chain) {
        if (part.afterTxid() != cur) {
            throw new RestoreException("cell " + scope + ": lineage part of e" + part.epoch() + " starts after txid "
                    + part.afterTxid() + " but the lineage reached txid " + cur);
        }
        boolean open = part.throughTxid() == Long.MAX_VALUE;
        while (cur < part.throughTxid()) {
            ObjectKey best = null;
            long nextStart = Long.MAX_VALUE;
            for (ObjectKey s : segments) {
                if (s.minTxid() == cur + 1 && s.maxTxid() <= part.throughTxid()
                        && (best == null || s.maxTxid() > best.maxTxid())) {
                    best = s;
                }
                if (s.minTxid() > cur) {
                    nextStart = Math.min(nextStart, s.minTxid());
                }
            }
            if (best != null) {
                chain.add(best);
                cur = best.maxTxid();
                continue;
            }
            if (open && nextStart == Long.MAX_VALUE) {
                break;
            }
            long missingTo = open ? nextStart - 1 : Math.min(part.throughTxid(), nextStart - 1);
            throw new RestoreException("cell " + scope + ": lineage gap in e" + part.epoch() + ": txids " + (cur + 1)
                    + ".." + (missingTo < cur + 1 ? part.throughTxid() : missingTo) + " are missing"
                    + (open ? "" : " (the pin bounds this epoch at txid " + part.throughTxid() + ")"));
        }
        return cur;
    }
}
