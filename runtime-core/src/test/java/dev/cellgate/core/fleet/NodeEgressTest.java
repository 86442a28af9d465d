package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.EgressPolicy;
import dev.cellgate.core.records.LeaseRecord;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class NodeEgressTest {
    final List<LeaseRecord> leases = new CopyOnWriteArrayList<>();
    final Map<String, String> dns = new ConcurrentHashMap<>();
    final AtomicLong now = new AtomicLong(1_000);
    final NodeEgress egress = new NodeEgress(EgressPolicy.DEFAULT, () -> leases, "n1", this::resolve, now::get);

    InetAddress[] resolve(String host) throws UnknownHostException {
        if (host.matches("[0-9.]+") || host.contains(":")) {
            return new InetAddress[] {InetAddress.getByName(host)};
        }
        String a = dns.get(host);
        if (a == null) {
            throw new UnknownHostException(host);
        }
        return new InetAddress[] {InetAddress.getByName(a)};
    }

    static LeaseRecord lease(String node, String advertise) {
        return new LeaseRecord(node, "s", advertise, 1, 0, Long.MAX_VALUE, LeaseRecord.Load.IDLE);
    }

    static InetAddress ip(String s) throws Exception {
        return InetAddress.getByName(s);
    }

    @Test
    void ownListenersAreRefusedOnceBoundAndAWildcardStandsForEveryLocalAddress() throws Exception {
        assertThat(egress.refusal("10.0.0.5", ip("10.0.0.5"), 9090)).as("nothing bound yet").isNull();
        egress.listeners(List.of(new NodeEgress.Listener("10.0.0.5", 9090, "internal listener"),
                new NodeEgress.Listener("0.0.0.0", 8080, "public listener")));
        assertThat(egress.refusal("10.0.0.5", ip("10.0.0.5"), 9090)).contains("this node's internal listener");
        assertThat(egress.refusal("10.0.0.5", ip("10.0.0.5"), 9091)).isNull();
        List<InetAddress> locals = java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces()).stream()
                .flatMap(n -> java.util.Collections.list(n.getInetAddresses()).stream())
                .filter(a -> !a.isLoopbackAddress() && !a.isLinkLocalAddress()).toList();
        org.junit.jupiter.api.Assumptions.assumeFalse(locals.isEmpty(), "this host has only loopback and link-local addresses");
        for (InetAddress local : locals) {
            assertThat(egress.refusal(local.getHostAddress(), local, 8080)).as("a wildcard bind is reachable on %s", local)
                    .contains("this node's public listener");
        }
    }

    @Test
    void everyPeersAdvertisedAddressIsRefusedAsTheLeasesChange() throws Exception {
        dns.put("n3.internal", "10.0.0.7");
        leases.add(lease("n1", "10.0.0.5:9090"));
        leases.add(lease("n2", "10.0.0.6:9090"));
        assertThat(egress.refusal("10.0.0.6", ip("10.0.0.6"), 9090)).contains("peer n2's advertised address 10.0.0.6:9090");
        assertThat(egress.refusal("10.0.0.7", ip("10.0.0.7"), 9090)).as("not a peer yet").isNull();
        leases.add(lease("n3", "n3.internal:9090"));
        assertThat(egress.refusal("10.0.0.7", ip("10.0.0.7"), 9090)).as("a peer that joined, by name").contains("peer n3");
        leases.removeIf(l -> l.node().equals("n2"));
        assertThat(egress.refusal("10.0.0.6", ip("10.0.0.6"), 9090)).as("a peer that left").isNull();
        leases.add(lease("n4", "garbage"));
        assertThat(egress.refusal("8.8.8.8", ip("8.8.8.8"), 443)).isNull();
    }

    @Test
    void peerNamesAreResolvedAgainAfterTheirTtlAndAFailedLookupKeepsTheLastAnswer() throws Exception {
        dns.put("n2.internal", "10.0.0.6");
        leases.add(lease("n2", "n2.internal:9090"));
        assertThat(egress.refusal("x", ip("10.0.0.6"), 9090)).isNotNull();
        dns.put("n2.internal", "10.0.0.8");
        assertThat(egress.refusal("x", ip("10.0.0.8"), 9090)).as("cached").isNull();
        now.addAndGet(NodeEgress.RESOLVE_TTL_MS + 1);
        assertThat(egress.refusal("x", ip("10.0.0.8"), 9090)).as("looked up again").isNotNull();
        dns.remove("n2.internal");
        now.addAndGet(NodeEgress.RESOLVE_TTL_MS + 1);
        assertThat(egress.refusal("x", ip("10.0.0.8"), 9090)).as("the last answer kept").isNotNull();
    }

    @Test
    void theAllowListLiftsAPeerRefusal() throws Exception {
        NodeEgress open = new NodeEgress(EgressPolicy.of("10.0.0.6:9090", null), () -> List.of(lease("n2", "10.0.0.6:9090")), "n1",
                this::resolve, now::get);
        assertThat(open.refusal("10.0.0.6", ip("10.0.0.6"), 9090)).isNull();
    }
}
