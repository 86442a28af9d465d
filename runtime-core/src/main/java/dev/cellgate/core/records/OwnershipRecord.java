package dev.cellgate.core.records;

import io.vertx.core.json.JsonObject;

/**
 * {@code cells/<scope>/own.json}: which node (and process session) owns a cell, at which epoch.
 * A released cell has {@code node:""} and keeps its epoch, so the next owner moves to epoch+1.
 */
public record OwnershipRecord(String node, String session, long epoch) {
    public OwnershipRecord {
        if (node == null || session == null || epoch < 1) {
            throw new MalformedRecordException("ownership record needs node, session and epoch >= 1");
        }
    }

    public static OwnershipRecord released(long epoch) {
        return new OwnershipRecord("", "", epoch);
    }

    public boolean isReleased() {
        return node.isEmpty();
    }

    public byte[] encode() {
        return Fields.bytes(new JsonObject().put("node", node).put("session", session).put("epoch", epoch));
    }

    public static OwnershipRecord decode(byte[] bytes) {
        Fields f = Fields.parse(bytes, "ownership record");
        long epoch = f.integer("epoch");
        if (epoch < 1) {
            throw new MalformedRecordException("ownership record: epoch must be >= 1, got " + epoch);
        }
        return new OwnershipRecord(f.text("node"), f.text("session"), epoch);
    }
}
