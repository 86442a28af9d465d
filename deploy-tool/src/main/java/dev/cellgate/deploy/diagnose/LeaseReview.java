package dev.cellgate.deploy.diagnose;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.MalformedRecordException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Judges the node leases under {@code nodes/} as read at one instant; pure (no I/O, the clock is
 * a parameter). Each record is live, expired, a tombstone (dead-node GC retiring it) or malformed,
 * and every live lease's advertise address is checked against the rest of the fleet:
 * <ul>
 *   <li>a wildcard (0.0.0.0, ::) or unparsable address is always a problem: peers cannot connect to it;</li>
 *   <li>a loopback address is a problem when another live node advertises a non-loopback one:
 *       the fleet spans hosts, and peers elsewhere would connect to themselves;</li>
 *   <li>two live nodes advertising the same address is a problem: calls for one reach the other.</li>
 * </ul>
 * An expired lease is a problem too: its node died or stopped without retiring it.
 */
public final class LeaseReview {
    private static final Liveness RECORD_AS_IS = Liveness.withSkew(0);

    private LeaseReview() {
    }

    public enum Status { LIVE, EXPIRED, TOMBSTONE, MALFORMED, VANISHED }

    /** One record as read: the key and its bytes (null when it vanished between list and read). */
    public record Read(String key, byte[] bytes) {
    }

    /** The verdict on one record. {@code lease} and {@code address} are null when unavailable. */
    public record Verdict(String key, String node, Status status, LeaseRecord lease, AdvertiseAddress address, List<String> problems) {
        public Verdict {
            problems = List.copyOf(problems);
        }

        public boolean ok() {
            return problems.isEmpty();
        }
    }

    public static List<Verdict> review(List<Read> reads, long nowMs) {
        List<Verdict> first = new ArrayList<>();
        for (Read r : reads) {
            first.add(judge(r, nowMs));
        }
        return crossCheck(first);
    }

    static Verdict judge(Read r, long nowMs) {
        String node = Keys.nodeOfLeaseKey(r.key());
        List<String> problems = new ArrayList<>();
        if (node == null) {
            problems.add("key " + r.key() + " is not nodes/<node>.json");
            return new Verdict(r.key(), null, Status.MALFORMED, null, null, problems);
        }
        if (r.bytes() == null) {
            return new Verdict(r.key(), node, Status.VANISHED, null, null, problems); // deleted while we looked: a clean stop
        }
        LeaseRecord lease;
        try {
            lease = LeaseRecord.decode(r.bytes());
        } catch (MalformedRecordException e) {
            problems.add("malformed: " + e.getMessage());
            return new Verdict(r.key(), node, Status.MALFORMED, null, null, problems);
        }
        if (!lease.node().equals(node)) {
            problems.add("malformed: the record under " + r.key() + " names node '" + lease.node() + "'");
            return new Verdict(r.key(), node, Status.MALFORMED, lease, null, problems);
        }
        if (lease.isTombstone()) {
            return new Verdict(r.key(), node, Status.TOMBSTONE, lease, null, problems);
        }
        // A report of the record as it stands: expired means past expires_ms by this tool's clock (peers
        // act on it only CELLD_CLOCK_SKEW_MS later, which a diagnosis from elsewhere cannot know).
        if (!RECORD_AS_IS.isLive(lease, nowMs)) {
            problems.add("expired " + seconds(nowMs - lease.expiresMs()) + " ago: the node died or stopped without retiring "
                    + "its lease (peers take its cells over; dead-node GC removes the record)");
            return new Verdict(r.key(), node, Status.EXPIRED, lease, address(lease, problems), problems);
        }
        return new Verdict(r.key(), node, Status.LIVE, lease, address(lease, problems), problems);
    }

    private static AdvertiseAddress address(LeaseRecord lease, List<String> problems) {
        try {
            AdvertiseAddress a = AdvertiseAddress.parse(lease.advertise());
            if (a.kind() == AdvertiseAddress.Kind.WILDCARD) {
                problems.add("advertises " + lease.advertise() + ", a bind-all address peers cannot connect to "
                        + "(set CELLD_ADVERTISE to an address other nodes can reach)");
            }
            return a;
        } catch (IllegalArgumentException e) {
            problems.add("unusable advertise address: " + e.getMessage());
            return null;
        }
    }

    /** Problems only visible across leases: loopback in a multi-host fleet, duplicate addresses. */
    private static List<Verdict> crossCheck(List<Verdict> verdicts) {
        List<Verdict> live = verdicts.stream().filter(v -> v.status() == Status.LIVE && v.address() != null).toList();
        Verdict remote = live.stream().filter(v -> v.address().kind() == AdvertiseAddress.Kind.OTHER).findFirst().orElse(null);
        Map<String, List<String>> byAddress = new HashMap<>();
        for (Verdict v : live) {
            byAddress.computeIfAbsent(v.address().authority().toLowerCase(java.util.Locale.ROOT), k -> new ArrayList<>()).add(v.node());
        }
        List<Verdict> out = new ArrayList<>();
        for (Verdict v : verdicts) {
            if (v.status() != Status.LIVE || v.address() == null) {
                out.add(v);
                continue;
            }
            List<String> problems = new ArrayList<>(v.problems());
            if (remote != null && v.address().kind() == AdvertiseAddress.Kind.LOOPBACK) {
                problems.add("advertises loopback " + v.lease().advertise() + " while " + remote.node() + " advertises "
                        + remote.lease().advertise() + ": nodes on other hosts would connect to themselves "
                        + "(set CELLD_ADVERTISE to this host's reachable address)");
            }
            List<String> same = byAddress.get(v.address().authority().toLowerCase(java.util.Locale.ROOT));
            if (same.size() > 1) {
                problems.add("advertises " + v.lease().advertise() + ", as do " + same.stream().filter(n -> !n.equals(v.node())).toList()
                        + ": calls for one node would reach another");
            }
            out.add(new Verdict(v.key(), v.node(), v.status(), v.lease(), v.address(), problems));
        }
        return out;
    }

    static String seconds(long ms) {
        return String.format(java.util.Locale.ROOT, "%.1fs", ms / 1000.0);
    }
}
