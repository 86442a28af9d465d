package dev.cellgate.core.records;

import io.vertx.core.json.JsonObject;

/** {@code fleet/peer-auth.json}: the fleet's HMAC key (64 hex), created once, create-only. */
public record PeerAuthRecord(int version, String keyHex, long createdMs) {
    public PeerAuthRecord {
        if (keyHex == null || !keyHex.matches("[0-9a-f]{64}")) {
            throw new MalformedRecordException("peer-auth record: key must be 64 lowercase hex characters");
        }
    }

    public byte[] encode() {
        return Fields.bytes(new JsonObject().put("version", version).put("key", keyHex).put("created_ms", createdMs));
    }

    public static PeerAuthRecord decode(byte[] bytes) {
        Fields f = Fields.parse(bytes, "peer-auth record");
        return new PeerAuthRecord((int) f.integer("version"), f.text("key"), f.integer("created_ms"));
    }
}
