package dev.cellgate.deploy.diagnose;

import dev.cellgate.core.records.LeaseRecord;
import java.nio.charset.StandardCharsets;

/** Lease records for tests. */
final class Leases {
    private Leases() {
    }

    static LeaseRecord lease(String node, String advertise, long expiresMs) {
        return new LeaseRecord(node, "s-" + node, advertise, 1, expiresMs - 10_000, expiresMs, new LeaseRecord.Load(2, 100, false, 0));
    }

    static byte[] bytes(LeaseRecord l) {
        return l.encode();
    }

    static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
