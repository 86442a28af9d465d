package dev.cellgate.replicator.wal.format;

import io.vertx.core.json.JsonObject;

/** The transactions {@code (afterTxid, throughTxid]} of a lineage that live under {@code epoch}. */
public record Span(long epoch, long afterTxid, long throughTxid) {
    public Span {
        if (throughTxid < afterTxid) {
            throw new IllegalArgumentException("span of e" + epoch + " ends (" + throughTxid + ") before it starts (" + afterTxid + ")");
        }
    }

    public JsonObject toJson() {
        return new JsonObject().put("epoch", epoch).put("after", afterTxid).put("through", throughTxid);
    }

    public static Span fromJson(JsonObject j, String what) {
        return new Span(Json.reqLong(j, "epoch", what), Json.reqLong(j, "after", what), Json.reqLong(j, "through", what));
    }
}
