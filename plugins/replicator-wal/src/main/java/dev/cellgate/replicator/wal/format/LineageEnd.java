package dev.cellgate.replicator.wal.format;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a lineage ends and how a restore reaches that end: what a new epoch's pin records.
 *
 * @param end                   the last point of the lineage
 * @param snapshot              the snapshot a restore starts from, or {@code null} (empty database)
 * @param spans                 the parts between the snapshot and {@code end}, oldest first
 * @param segmentsSinceSnapshot segment objects a restore reads after the snapshot (compaction policy input)
 * @param bytesSinceSnapshot    bytes of those segments (snapshot policy input)
 */
public record LineageEnd(Position end, SnapshotRef snapshot, List<Span> spans, int segmentsSinceSnapshot,
                         long bytesSinceSnapshot) {
    public LineageEnd {
        spans = List.copyOf(spans);
    }

    public static LineageEnd empty() {
        return new LineageEnd(Position.empty(), null, List.of(), 0, 0);
    }

    /** The pin of {@code epoch} continuing from this end. */
    public BaseRecord baseFor(String scope, long epoch) {
        return new BaseRecord(scope, epoch, end, snapshot, spans);
    }

    JsonObject toJson() {
        JsonArray s = new JsonArray();
        spans.forEach(x -> s.add(x.toJson()));
        return new JsonObject().put("end", end.toJson()).put("snapshot", snapshot == null ? null : snapshot.toJson())
                .put("spans", s).put("segmentsSinceSnapshot", segmentsSinceSnapshot).put("bytesSinceSnapshot", bytesSinceSnapshot);
    }

    static LineageEnd fromJson(JsonObject j, String what) {
        if (!(j.getValue("end") instanceof JsonObject end) || !(j.getValue("spans") instanceof JsonArray arr)) {
            throw new IllegalArgumentException(what + ": lineage needs 'end' and 'spans'");
        }
        List<Span> spans = new ArrayList<>();
        for (Object o : arr) {
            spans.add(Span.fromJson((JsonObject) o, what));
        }
        Object snap = j.getValue("snapshot");
        return new LineageEnd(Position.fromJson(end, what), snap instanceof JsonObject so ? SnapshotRef.fromJson(so, what) : null,
                spans, (int) Json.reqLong(j, "segmentsSinceSnapshot", what), Json.reqLong(j, "bytesSinceSnapshot", what));
    }
}
