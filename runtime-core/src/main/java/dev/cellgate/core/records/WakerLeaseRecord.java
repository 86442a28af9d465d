package dev.cellgate.core.records;

import io.vertx.core.json.JsonObject;

/** {@code wake/waker.json}: the advisory waker lease. Two holders at once are harmless, only wasteful. */
public record WakerLeaseRecord(String node, String session, long expiresMs) {
    public byte[] encode() {
        return Fields.bytes(new JsonObject().put("node", node).put("session", session).put("expires_ms", expiresMs));
    }

    public static WakerLeaseRecord decode(byte[] bytes) {
        Fields f = Fields.parse(bytes, "waker lease");
        return new WakerLeaseRecord(f.text("node"), f.text("session"), f.integer("expires_ms"));
    }
}
