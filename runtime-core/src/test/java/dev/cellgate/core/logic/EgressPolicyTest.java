package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.EgressPolicy.Destination;
import dev.cellgate.core.logic.EgressPolicy.Endpoint;
import dev.cellgate.core.logic.EgressPolicy.Verdict;
import java.net.InetAddress;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class EgressPolicyTest {
    static final List<Endpoint> NONE = List.of();

    static InetAddress ip(String literal) {
        InetAddress a = EgressPolicy.literal(literal);
        assertThat(a).as(literal).isNotNull();
        return a;
    }

    static Verdict decide(EgressPolicy p, String host, String address, int port) {
        return p.decide(new Destination(host, ip(address), port), NONE, NONE);
    }

    static Verdict byDefault(String address, int port) {
        return decide(EgressPolicy.DEFAULT, address, address, port);
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.255.0.9", "::1", "169.254.169.254", "169.254.0.1", "fe80::1", "febf::ffff",
        "0.0.0.0", "0.1.2.3", "::", "fd00:ec2::254", "100.100.100.200", "::ffff:127.0.0.1", "::127.0.0.1", "::ffff:169.254.169.254"})
    void refusedByDefault(String address) {
        Verdict v = byDefault(address, 80);
        assertThat(v.allowed()).as(address).isFalse();
        assertThat(v.reason()).contains("refused").contains("CELLD_EGRESS_ALLOW");
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.1.2.3", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1", "fd12:3456::1",
        "fec0::1", "8.8.8.8", "1.1.1.1", "2606:4700::1111", "169.253.255.255", "169.255.0.0", "128.0.0.1", "fe7f::1", "fec0::"})
    void privateAndPublicRangesStayReachable(String address) {
        assertThat(byDefault(address, 443).allowed()).as(address).isTrue();
    }

    @Test
    void theReasonNamesTheDestinationAndWhatItIs() {
        assertThat(decide(EgressPolicy.DEFAULT, "localhost", "127.0.0.1", 8080).reason())
                .isEqualTo("connection to localhost (127.0.0.1:8080) refused: 127.0.0.1 is a loopback address;"
                        + " list it in CELLD_EGRESS_ALLOW to allow it");
        assertThat(byDefault("169.254.169.254", 80).reason()).contains("169.254.169.254:80").contains("cloud metadata service");
        assertThat(decide(EgressPolicy.DEFAULT, "rebind.example", "127.0.0.1", 80).reason())
                .as("a name is judged by the address it resolved to").contains("rebind.example (127.0.0.1:80)");
    }

    @Test
    void theNodesOwnListenersAndEveryPeersAdvertisedAddressAreRefused() {
        List<Endpoint> own = List.of(new Endpoint(ip("10.0.0.5"), 9090, "internal listener"), new Endpoint(ip("10.0.0.5"), 8080,
                "public listener"));
        List<Endpoint> peers = List.of(new Endpoint(ip("10.0.0.6"), 9090, "peer n2's advertised address"));
        EgressPolicy p = EgressPolicy.DEFAULT;
        assertThat(p.decide(new Destination("10.0.0.5", ip("10.0.0.5"), 9090), own, peers).reason()).contains("this node's internal listener");
        assertThat(p.decide(new Destination("10.0.0.5", ip("10.0.0.5"), 8080), own, peers).reason()).contains("this node's public listener");
        assertThat(p.decide(new Destination("n2.internal", ip("10.0.0.6"), 9090), own, peers).reason()).contains("peer n2's advertised address");
        assertThat(p.decide(new Destination("10.0.0.5", ip("10.0.0.5"), 5432), own, peers).allowed()).as("another port of the host").isTrue();
        assertThat(p.decide(new Destination("10.0.0.6", ip("10.0.0.6"), 9091), own, peers).allowed()).isTrue();
        assertThat(p.decide(new Destination("127.0.0.1", ip("127.0.0.1"), 9090),
                List.of(new Endpoint(ip("127.0.0.1"), 9090, "internal listener")), peers).reason())
                .as("the most specific reason").contains("this node's internal listener");
    }

    @Test
    void theAllowListLiftsExactlyWhatItNames() {
        EgressPolicy p = EgressPolicy.of("127.0.0.1:8080, 10.9.0.0/16, [::1]:9000, metadata.internal, *.svc.local", null);
        assertThat(decide(p, "127.0.0.1", "127.0.0.1", 8080).allowed()).isTrue();
        assertThat(decide(p, "127.0.0.1", "127.0.0.1", 8081).allowed()).as("another port").isFalse();
        assertThat(decide(p, "::1", "::1", 9000).allowed()).isTrue();
        assertThat(decide(p, "::1", "::1", 9001).allowed()).isFalse();
        assertThat(decide(p, "metadata.internal", "169.254.169.254", 80).allowed()).as("a listed name, whatever it resolves to").isTrue();
        assertThat(decide(p, "Metadata.Internal.", "169.254.169.254", 80).allowed()).as("names compare case-blind, trailing dot").isTrue();
        assertThat(decide(p, "other.internal", "169.254.169.254", 80).allowed()).isFalse();
        assertThat(decide(p, "db.svc.local", "127.0.0.1", 5432).allowed()).isTrue();
        assertThat(decide(p, "svc.local", "127.0.0.1", 5432).allowed()).as("*.x matches subdomains only").isFalse();
        List<Endpoint> own = List.of(new Endpoint(ip("127.0.0.1"), 8080, "public listener"));
        assertThat(p.decide(new Destination("127.0.0.1", ip("127.0.0.1"), 8080), own, NONE).allowed())
                .as("listed: allowed even though it is this node's listener").isTrue();
        assertThat(decide(EgressPolicy.of("127.0.0.0/8", null), "127.3.2.1", "127.3.2.1", 1).allowed()).isTrue();
        assertThat(decide(EgressPolicy.of("0.0.0.0/0", null), "169.254.169.254", "169.254.169.254", 80).allowed()).isTrue();
        assertThat(decide(EgressPolicy.of("0.0.0.0/0", null), "::1", "::1", 80).allowed()).as("a v4 block is no v6 rule").isFalse();
    }

    @Test
    void theDenyListNarrowsAndWinsOverTheAllowList() {
        EgressPolicy p = EgressPolicy.of("10.0.0.0/8", "10.0.0.0/8, 192.168.0.0/16:5432, *.corp.example");
        Verdict v = decide(p, "10.1.2.3", "10.1.2.3", 443);
        assertThat(v.allowed()).isFalse();
        assertThat(v.reason()).contains("CELLD_EGRESS_DENY entry '10.0.0.0/8'").doesNotContain("CELLD_EGRESS_ALLOW");
        assertThat(decide(p, "192.168.1.1", "192.168.1.1", 5432).allowed()).isFalse();
        assertThat(decide(p, "192.168.1.1", "192.168.1.1", 443).allowed()).isTrue();
        assertThat(decide(p, "git.corp.example", "8.8.8.8", 443).allowed()).isFalse();
        assertThat(decide(p, "8.8.8.8", "8.8.8.8", 443).allowed()).as("the name was not asked for").isTrue();
    }

    @Property
    void ipv4ByDefaultMatchesTheJdksOwnClassification(@ForAll @IntRange(min = 0, max = 255) int a, @ForAll @IntRange(min = 0, max = 255) int b,
                                                     @ForAll @IntRange(min = 0, max = 255) int c, @ForAll @IntRange(min = 0, max = 255) int d)
            throws Exception {
        InetAddress x = InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        boolean special = x.isLoopbackAddress() || x.isLinkLocalAddress() || a == 0 || x.getHostAddress().equals("100.100.100.200");
        assertThat(EgressPolicy.DEFAULT.decide(new Destination(null, x, 80), NONE, NONE).allowed()).as(x.getHostAddress()).isEqualTo(!special);
    }

    @Property
    void aCidrRuleMatchesExactlyItsBlock(@ForAll @IntRange(min = 0, max = 32) int bits, @ForAll int base, @ForAll int probe) throws Exception {
        byte[] net = java.nio.ByteBuffer.allocate(4).putInt(base).array();
        byte[] addr = java.nio.ByteBuffer.allocate(4).putInt(probe).array();
        String rule = InetAddress.getByAddress(net).getHostAddress() + "/" + bits;
        boolean inside = bits == 0 || (base >>> (32 - bits)) == (probe >>> (32 - bits));
        EgressPolicy p = EgressPolicy.of(null, rule);
        assertThat(p.decide(new Destination(null, InetAddress.getByAddress(addr), 80), NONE, NONE).reason() != null
                && p.decide(new Destination(null, InetAddress.getByAddress(addr), 80), NONE, NONE).reason().contains("CELLD_EGRESS_DENY"))
                .as("%s vs %s", rule, InetAddress.getByAddress(addr).getHostAddress()).isEqualTo(inside);
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1/33", "::1/129", "10.0.0.1:0", "10.0.0.1:65536", "10.0.0.1:http", "a,,b", ",", "exa mple.com",
        "[::1", "[10.0.0.1]:80", "[::1]80", "host/8", "1.2.3.4.5/8", "-bad.example", "fe80::1%eth0", "*.", "a..b"})
    void malformedEntriesAreRefusedNamingTheEntry(String list) {
        assertThatThrownBy(() -> EgressPolicy.parseList(list)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'");
    }

    @Test
    void wellFormedListsParse() {
        assertThat(EgressPolicy.parseList("127.0.0.1, 10.0.0.0/8:443, ::1, [fd00::/8]:8443, fe80::/10, api.internal:9000, *.svc, _srv.x"))
                .extracting(Object::toString).containsExactly("127.0.0.1", "10.0.0.0/8:443", "::1", "[fd00::/8]:8443", "fe80::/10",
                        "api.internal:9000", "*.svc", "_srv.x");
        assertThat(EgressPolicy.parseList(null)).isEmpty();
        assertThat(EgressPolicy.parseList("  ")).isEmpty();
        assertThat(EgressPolicy.literal("localhost")).as("a name is never looked up").isNull();
        assertThat(EgressPolicy.literal("1.2.3")).isNull();
    }

    @Test
    void theBrokenVariantLetsANameThroughWhateverItResolvesTo() {
        EgressPolicy broken = EgressPolicy.DEFAULT.judgingLiteralsOnly();
        assertThat(decide(broken, "localhost", "127.0.0.1", 80).allowed()).isTrue();
        assertThat(decide(broken, "127.0.0.1", "127.0.0.1", 80).allowed()).isFalse();
        assertThat(decide(EgressPolicy.DEFAULT, "localhost", "127.0.0.1", 80).allowed()).isFalse();
    }
}
