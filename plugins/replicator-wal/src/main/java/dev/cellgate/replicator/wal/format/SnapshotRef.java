package dev.cellgate.replicator.wal.format;

import io.vertx.core.json.JsonObject;

/** A snapshot of the database after {@code txid}, stored under {@code epoch}. */
public record SnapshotRef(long epoch, long txid) {
    public JsonObject toJson() {
        return new JsonObject().put("epoch", epoch).put("txid", txid);
    }

    public static SnapshotRef fromJson(JsonObject j, String what) {
        return new SnapshotRef(Json.reqLong(j, "epoch", what), Json.reqLong(j, "txid", what));
    }
}
