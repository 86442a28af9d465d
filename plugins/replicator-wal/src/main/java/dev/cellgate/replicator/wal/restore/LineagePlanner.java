package dev.cellgate.replicator.wal.restore;

import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.replicator.wal.format.BaseRecord;
import dev.cellgate.replicator.wal.format.ObjectKey;
import dev.cellgate.replicator.wal.format.SnapshotRef;
import dev.cellgate.replicator.wal.format.Span;
import dev.cellgate.replicator.wal.format.LineageKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
 *
 * <p>Data without a pin is never passed over. Nothing is uploaded under an epoch before its pin is
 * durable, and only the garbage collection of a newer pinned epoch deletes a pin, so the newest
 * pin ever written survives every collection. Data in an epoch above the newest pin therefore
 * means a pin was lost (deleted by hand, a broken store): following an older lineage, or starting
 * empty, would hide writes that may have been acknowledged, and the next collection would delete
 * them. Such a restore is refused ({@link #tip}); the collection has the same guard ({@link #gcRefusal}).
 */
public final class LineagePlanner {
    private LineagePlanner() {
    }

    /**
     * The epoch whose lineage a restore below {@code below} follows: the newest pinned one, or -1
     * for a new cell. Refuses when an epoch above it (and below the bound) holds data.
     */
    public static long tip(String scope, LineageListing listing, long below, PinRule rule) {
        long tip = listing.newestPinnedBelow(below);
        if (!rule.restoreRefuses()) {
            return tip;
        }
        List<Long> unpinned = unpinnedData(listing, Math.max(tip, 0), below, Set.of());
        if (!unpinned.isEmpty()) {
            throw new RestoreException("cell " + scope + ": activation refused: " + describe(scope, listing, unpinned)
                    + (tip < 0 ? ", and no epoch below e" + below + " is pinned" : ", and e" + tip + " is the newest pinned epoch")
                    + ": restoring " + (tip < 0 ? "an empty database" : "the lineage of e" + tip)
                    + " would hide data that may hold acknowledged writes (the newest pin is never collected, so it was lost"
                    + " outside the protocol: put the pin back, or move the objects aside once they are known to be garbage)");
        }
        return tip;
    }

    /**
     * The guard of the garbage collection of {@code plan.tip()}: a reason to delete nothing, or
     * empty. Data in an epoch between the point the tip continues from and the tip itself is
     * garbage only when a pin says whose it was (a stale owner's late writes); without one it may
     * be a lineage whose pin was lost, which no plan read, so it must not be collected.
     *
     * @param retired epochs whose pins this collector deleted itself: what lands there later is a
     *                stale owner's late write it already placed
     */
    public static Optional<String> gcRefusal(String scope, LineageListing listing, RestorePlan plan, Set<Long> retired,
                                             PinRule rule) {
        if (!rule.gcRefuses()) {
            return Optional.empty();
        }
        List<Long> unpinned = unpinnedData(listing, plan.base().parent().epoch(), plan.tip(), retired);
        if (unpinned.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(describe(scope, listing, unpinned) + " between e" + plan.base().parent().epoch()
                + " (where e" + plan.tip() + " continues from) and e" + plan.tip()
                + ": data of a lineage no plan read, kept");
    }

    /** Epochs strictly between {@code after} and {@code before}, not in {@code except}, holding data but no pin. */
    static List<Long> unpinnedData(LineageListing listing, long after, long before, Set<Long> except) {
        List<Long> out = new ArrayList<>();
        if (before <= after + 1) {
            return out;
        }
        for (Map.Entry<Long, LineageListing.EpochObjects> e : listing.epochs().subMap(after, false, before, false).entrySet()) {
            if (!e.getValue().pinned() && e.getValue().dataObjects() > 0 && !except.contains(e.getKey())) {
                out.add(e.getKey());
            }
        }
        return out;
    }

    private static String describe(String scope, LineageListing listing, List<Long> epochs) {
        LineageKeys keys = new LineageKeys(scope);
        StringBuilder b = new StringBuilder();
        for (long e : epochs) {
            int n = listing.epoch(e).dataObjects();
            b.append(b.isEmpty() ? "" : "; ").append("e").append(e).append(" holds ").append(n).append(n == 1 ? " object" : " objects")
                    .append(" but its pin ").append(keys.base(e)).append(" is missing");
        }
        return b.toString();
    }

    public static RestorePlan plan(String scope, LineageListing listing, long tip, BaseRecord base) {
        return plan(scope, listing, tip, base, Long.MAX_VALUE);
    }

    /**
     * The plan of the lineage of {@code tip} up to exactly transaction {@code through} (point-in-time
     * recovery): from the tip's newest own snapshot at or before it, else the pin's start, to a
     * segment ending right at {@code through}. A point before the tip's start, or one no segment
     * ends at (collected, or inside a compaction whose l0s are gone), is refused.
     */
    public static RestorePlan planTo(String scope, LineageListing listing, long tip, BaseRecord base, long through) {
        if (through < base.parent().txid()) {
            throw new RestoreException("cell " + scope + ": txid " + through + " lies before the start of e" + tip
                    + " (it continues from txid " + base.parent().txid() + ")");
        }
        try {
            // The tip's part is closed at the point: the plan reaches it exactly, or names the gap.
            return plan(scope, listing, tip, base, through);
        } catch (RestoreException e) {
            throw new RestoreException("cell " + scope + ": the state e" + tip + "@" + through
                    + " cannot be rebuilt from the bucket (collected, or never reached): " + e.getMessage(), e);
        }
    }

    private static RestorePlan plan(String scope, LineageListing listing, long tip, BaseRecord base, long bound) {
        LineageListing.EpochObjects tipObjects = listing.epoch(tip);
        List<Span> parts = new ArrayList<>();
        SnapshotRef snapshot;
        ObjectKey manifest;
        long pinCheck;
        Map.Entry<Long, ObjectKey> own = tipObjects.manifests().floorEntry(bound);
        if (own != null) {
            if (own.getKey() < base.parent().txid()) {
                throw new RestoreException("cell " + scope + ": snapshot " + own.getValue().key() + " at txid " + own.getKey()
                        + " lies before the pin of e" + tip + " (txid " + base.parent().txid() + ")");
            }
            snapshot = new SnapshotRef(tip, own.getKey());
            manifest = own.getValue();
            pinCheck = -1;
            parts.add(new Span(tip, own.getKey(), bound));
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
            parts.add(new Span(tip, base.parent().txid(), bound));
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
