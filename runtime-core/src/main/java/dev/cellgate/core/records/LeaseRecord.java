package dev.cellgate.core.records;

import io.vertx.core.json.JsonObject;

/**
 * {@code nodes/<node>.json}: a node's lease. Written at start, renewed by CAS every TTL/3.
 * {@code expires_ms: 0} is a tombstone left by dead-node GC before it deletes the record.
 *
 * @param protocol peer protocol version the node speaks
 * @param load     what placement decisions read
 */
public record LeaseRecord(String node, String session, String advertise, int protocol, long startedMs, long expiresMs, Load load) {

    /** Load published with the lease. {@code maxResident} is -1 when unlimited. */
    public record Load(int resident, int maxResident, boolean pressured, int restoring) {
        public static final Load IDLE = new Load(0, -1, false, 0);

        JsonObject toJson() {
            return new JsonObject().put("resident", resident).put("max_resident", maxResident)
                    .put("pressured", pressured).put("restoring", restoring);
        }

        static Load fromJson(Fields f) {
            return new Load((int) f.integer("resident"), (int) f.integer("max_resident"), f.bool("pressured"), (int) f.integer("restoring"));
        }

        /** True when the node can take one more cell. */
        public boolean hasCapacity() {
            return !pressured && (maxResident < 0 || resident < maxResident);
        }
    }

    public LeaseRecord withExpiry(long newExpiresMs) {
        return new LeaseRecord(node, session, advertise, protocol, startedMs, newExpiresMs, load);
    }

    public LeaseRecord withLoad(Load newLoad) {
        return new LeaseRecord(node, session, advertise, protocol, startedMs, expiresMs, newLoad);
    }

    public boolean isTombstone() {
        return expiresMs == 0;
    }

    public byte[] encode() {
        return Fields.bytes(new JsonObject().put("node", node).put("session", session).put("advertise", advertise)
                .put("protocol", protocol).put("started_ms", startedMs).put("expires_ms", expiresMs)
                .put("load", load.toJson()));
    }

    public static LeaseRecord decode(byte[] bytes) {
        Fields f = Fields.parse(bytes, "node lease");
        return new LeaseRecord(f.text("node"), f.text("session"), f.text("advertise"), (int) f.integer("protocol"),
                f.integer("started_ms"), f.integer("expires_ms"), Load.fromJson(Fields.of(f.object("load"), "node lease load")));
    }
}
