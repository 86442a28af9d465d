package dev.cellgate.replicator.wal.format;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The pin of an epoch ({@code e<epoch>/base.json}): the exact point of the previous lineage this
 * epoch continues from. Written create-only before any commit of the epoch is acknowledged, it
 * makes whatever a stale owner of an older epoch writes later invisible: a restore follows the
 * newest pinned epoch, and that pin names where each older epoch's part of the lineage ends.
 *
 * @param parent   the point continued from ({@link Position#empty()} for a new cell)
 * @param snapshot the newest snapshot of the lineage before this epoch, or {@code null}: the lineage
 *                 starts from an empty database
 * @param spans    the parts of the lineage between that snapshot (or txid 0) and {@code parent.txid},
 *                 oldest first, contiguous; empty parts are left out
 */
public record BaseRecord(String scope, long epoch, Position parent, SnapshotRef snapshot, List<Span> spans) {
    /**
     * 2 since segment keys name their time (point-in-time recovery). A build from before reads pins of
     * format 1 only and does not know timed segment keys (it lists them as unknown and restores
     * without them): its refusal of this pin ("unsupported format 2", a failed restore) is what keeps
     * such a node, during a rolling upgrade, from activating a cell whose newest segments it cannot
     * see. Pins of format 1, in buckets written before, are still read.
     */
    static final int FORMAT = 2;
    static final int FORMAT_BEFORE_TIMED_KEYS = 1;

    public BaseRecord {
        spans = List.copyOf(spans);
        long at = snapshot == null ? 0 : snapshot.txid();
        for (Span s : spans) {
            if (s.afterTxid() != at || s.epoch() >= epoch) {
                throw new IllegalArgumentException("base of e" + epoch + ": span " + s + " does not continue at txid " + at);
            }
            at = s.throughTxid();
        }
        if (at != parent.txid()) {
            throw new IllegalArgumentException("base of e" + epoch + ": spans end at txid " + at + ", parent is at " + parent.txid());
        }
        if (snapshot != null && snapshot.epoch() >= epoch) {
            throw new IllegalArgumentException("base of e" + epoch + " names a snapshot of a later epoch " + snapshot.epoch());
        }
    }

    public byte[] toBytes() {
        JsonArray s = new JsonArray();
        spans.forEach(x -> s.add(x.toJson()));
        return Json.bytes(new JsonObject().put("format", FORMAT).put("scope", scope).put("epoch", epoch)
                .put("parent", parent.toJson()).put("snapshot", snapshot == null ? null : snapshot.toJson())
                .put("spans", s).put("createdMs", System.currentTimeMillis()));
    }

    public static BaseRecord fromBytes(byte[] bytes, String what) {
        JsonObject j = Json.parse(bytes, what);
        long format = Json.reqLong(j, "format", what);
        if (format != FORMAT && format != FORMAT_BEFORE_TIMED_KEYS) {
            throw new IllegalArgumentException(what + ": unsupported format " + j.getValue("format"));
        }
        JsonObject parent = j.getValue("parent") instanceof JsonObject p ? p : null;
        if (parent == null) {
            throw new IllegalArgumentException(what + ": field 'parent' must be an object");
        }
        Object snap = j.getValue("snapshot");
        if (snap != null && !(snap instanceof JsonObject)) {
            throw new IllegalArgumentException(what + ": field 'snapshot' must be an object or null");
        }
        if (!(j.getValue("spans") instanceof JsonArray arr)) {
            throw new IllegalArgumentException(what + ": field 'spans' must be an array");
        }
        List<Span> spans = new ArrayList<>();
        for (Object o : arr) {
            if (!(o instanceof JsonObject so)) {
                throw new IllegalArgumentException(what + ": 'spans' holds a non-object");
            }
            spans.add(Span.fromJson(so, what));
        }
        return new BaseRecord(Json.reqString(j, "scope", what), Json.reqLong(j, "epoch", what),
                Position.fromJson(parent, what), snap == null ? null : SnapshotRef.fromJson((JsonObject) snap, what), spans);
    }
}
