package dev.cellgate.replicator.wal.restore;

import dev.cellgate.replicator.wal.format.BaseRecord;
import dev.cellgate.replicator.wal.format.ObjectKey;
import dev.cellgate.replicator.wal.format.SnapshotRef;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the collector keeps so that every state inside the retention window stays restorable
 * (pure). For an epoch whose oldest state in the window is {@code floor}: what a restore to
 * {@code floor} reads (its snapshot, the pin's chain or the epoch's own newest snapshot before it,
 * the segments up to it), the epoch's pin, and every later segment and snapshot of the epoch —
 * each segment end is a state a bookmark names; the snapshots keep restores to later points short.
 * Nothing of an epoch with no state in the window is kept for retention.
 */
public final class RetentionKeep {
    private final Set<String> keys = new HashSet<>();
    private final Set<SnapshotRef> snapshots = new HashSet<>();

    /** Keys to keep besides the current plan's, and the snapshots whose chunks to keep. */
    public Set<String> keys() {
        return keys;
    }

    public Set<SnapshotRef> snapshots() {
        return snapshots;
    }

    /** Adds what restores of {@code epoch} to {@code floor} and to every later state of it need. */
    public void keepFrom(String scope, LineageListing listing, long epoch, BaseRecord base, long floor) {
        RestorePlan p = LineagePlanner.planTo(scope, listing, epoch, base, floor);
        keys.addAll(p.keysRead());
        if (p.snapshot() != null) {
            snapshots.add(p.snapshot());
        }
        LineageListing.EpochObjects own = listing.epoch(epoch);
        if (own.base != null) {
            keys.add(own.base.key());
        }
        for (ObjectKey s : own.segments()) {
            if (s.maxTxid() > floor) {
                keys.add(s.key());
            }
        }
        for (Map.Entry<Long, ObjectKey> m : own.manifests().tailMap(floor, false).entrySet()) {
            keys.add(m.getValue().key());
            snapshots.add(new SnapshotRef(epoch, m.getKey()));
        }
    }

    /** Whether {@code k} must stay. */
    public boolean keeps(ObjectKey k) {
        return keys.contains(k.key())
                || (k.type() == ObjectKey.Type.CHUNK && snapshots.contains(new SnapshotRef(k.epoch(), k.minTxid())));
    }
}
