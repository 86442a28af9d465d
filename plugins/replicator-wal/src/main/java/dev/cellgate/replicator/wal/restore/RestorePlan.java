package dev.cellgate.replicator.wal.restore;

import dev.cellgate.replicator.wal.format.BaseRecord;
import dev.cellgate.replicator.wal.format.ObjectKey;
import dev.cellgate.replicator.wal.format.SnapshotRef;
import dev.cellgate.replicator.wal.format.Span;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The objects a restore of one lineage reads, in apply order.
 *
 * @param tip           the newest pinned epoch, whose lineage this is
 * @param base          its pin
 * @param snapshot      the snapshot to start from, or {@code null} (start from an empty database)
 * @param manifest      the snapshot's manifest key, or {@code null}
 * @param segments      segments to apply after the snapshot, contiguous in txid
 * @param spans         the parts of the lineage from the snapshot (or txid 0) to {@link #endTxid}, empty ones left out
 * @param pinCheckTxid  txid at which the database must equal {@code base.parent()} (the point the tip
 *                      continues from), or -1 when the restore starts at a snapshot of the tip itself
 */
public record RestorePlan(long tip, BaseRecord base, SnapshotRef snapshot, ObjectKey manifest, List<ObjectKey> segments,
                          List<Span> spans, long endTxid, long pinCheckTxid) {
    public RestorePlan {
        segments = List.copyOf(segments);
        spans = List.copyOf(spans);
    }

    /** No snapshot and no segment: the lineage holds no data at all. */
    public boolean empty() {
        return snapshot == null && segments.isEmpty();
    }

    /** Keys a restore of this plan reads, except the snapshot's chunks (named by the manifest). */
    public Set<String> keysRead() {
        Set<String> s = new HashSet<>();
        segments.forEach(k -> s.add(k.key()));
        if (manifest != null) {
            s.add(manifest.key());
        }
        return s;
    }

    public List<String> describe() {
        List<String> out = new ArrayList<>();
        if (snapshot != null) {
            out.add("snapshot e" + snapshot.epoch() + "@" + snapshot.txid());
        }
        segments.forEach(k -> out.add(k.type() + " e" + k.epoch() + " " + k.minTxid() + ".." + k.maxTxid()));
        return out;
    }
}
