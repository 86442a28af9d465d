package dev.cellgate.deploy.diagnose;

import static dev.cellgate.deploy.diagnose.Leases.lease;
import static dev.cellgate.deploy.diagnose.Leases.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.diagnose.LeaseReview.Read;
import dev.cellgate.deploy.diagnose.LeaseReview.Status;
import dev.cellgate.deploy.diagnose.LeaseReview.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeaseReviewTest {
    static final long NOW = 1_800_000_000_000L;

    static Read read(String node, String advertise, long expires) {
        return new Read("nodes/" + node + ".json", lease(node, advertise, expires).encode());
    }

    static Verdict only(List<Verdict> vs, String node) {
        return vs.stream().filter(v -> node.equals(v.node())).findFirst().orElseThrow();
    }

    @Test
    void liveLeasesOnOneHostAreFine() {
        List<Verdict> vs = LeaseReview.review(List.of(read("a", "127.0.0.1:7001", NOW + 5000), read("b", "127.0.0.1:7002", NOW + 5000)), NOW);
        assertThat(vs).allSatisfy(v -> {
            assertThat(v.status()).isEqualTo(Status.LIVE);
            assertThat(v.problems()).isEmpty();
        });
    }

    @Test
    void expiredTombstoneVanishedAndMalformed() {
        List<Verdict> vs = LeaseReview.review(List.of(
                read("old", "10.0.0.1:7000", NOW - 4500),
                new Read("nodes/gc.json", lease("gc", "10.0.0.2:7000", 0).encode()),
                new Read("nodes/gone.json", null),
                new Read("nodes/junk.json", text("{not json")),
                new Read("nodes/partial.json", text("{\"node\":\"partial\",\"session\":\"s\"}")),
                new Read("nodes/alias.json", lease("other", "10.0.0.3:7000", NOW + 5000).encode()),
                new Read("nodes/a/b.json", lease("b", "10.0.0.3:7000", NOW + 5000).encode())), NOW);
        assertThat(only(vs, "old").status()).isEqualTo(Status.EXPIRED);
        assertThat(only(vs, "old").problems()).singleElement().asString().startsWith("expired 4.5s ago");
        assertThat(only(vs, "gc").status()).isEqualTo(Status.TOMBSTONE);
        assertThat(only(vs, "gc").ok()).isTrue();
        assertThat(only(vs, "gone").status()).isEqualTo(Status.VANISHED);
        assertThat(only(vs, "gone").ok()).isTrue();
        assertThat(only(vs, "junk").status()).isEqualTo(Status.MALFORMED);
        assertThat(only(vs, "junk").problems()).singleElement().asString().contains("not a JSON object");
        assertThat(only(vs, "partial").problems()).singleElement().asString().contains("field 'advertise'");
        assertThat(only(vs, "alias").problems()).singleElement().asString().contains("names node 'other'");
        Verdict nested = vs.stream().filter(v -> v.key().equals("nodes/a/b.json")).findFirst().orElseThrow();
        assertThat(nested.status()).isEqualTo(Status.MALFORMED);
    }

    @Test
    void aWildcardOrUnparsableAddressIsAlwaysAProblem() {
        List<Verdict> vs = LeaseReview.review(List.of(read("w", "0.0.0.0:7000", NOW + 5000), read("v6", "[::]:7000", NOW + 5000),
                read("p", "host-without-port", NOW + 5000), read("z", "10.0.0.1:0", NOW + 5000)), NOW);
        assertThat(only(vs, "w").problems()).singleElement().asString().contains("bind-all address");
        assertThat(only(vs, "v6").problems()).singleElement().asString().contains("bind-all address");
        assertThat(only(vs, "p").problems()).singleElement().asString().contains("is not host:port");
        assertThat(only(vs, "z").problems()).singleElement().asString().contains("port 0");
    }

    @Test
    void loopbackIsAProblemOnlyWhenAnotherNodeIsElsewhere() {
        List<Verdict> vs = LeaseReview.review(List.of(read("local", "127.0.0.1:7001", NOW + 5000),
                read("remote", "10.1.2.3:7001", NOW + 5000), read("dead-remote", "10.9.9.9:7001", NOW - 1)), NOW);
        assertThat(only(vs, "local").problems()).singleElement().asString()
                .contains("advertises loopback 127.0.0.1:7001 while remote advertises 10.1.2.3:7001");
        assertThat(only(vs, "remote").problems()).isEmpty();
        List<Verdict> onlyLocalAndDead = LeaseReview.review(List.of(read("local", "localhost:7001", NOW + 5000),
                read("dead-remote", "10.9.9.9:7001", NOW - 1)), NOW);
        assertThat(only(onlyLocalAndDead, "local").problems()).as("an expired remote lease says nothing about the fleet now").isEmpty();
    }

    @Test
    void twoLiveNodesOnOneAddressAreBothFlagged() {
        List<Verdict> vs = LeaseReview.review(List.of(read("a", "10.0.0.1:7000", NOW + 5000), read("b", "10.0.0.1:7000", NOW + 5000)), NOW);
        assertThat(only(vs, "a").problems()).singleElement().asString().contains("as do [b]");
        assertThat(only(vs, "b").problems()).singleElement().asString().contains("as do [a]");
    }

    @Test
    void addressKinds() {
        assertThat(AdvertiseAddress.parse("127.3.4.5:1").kind()).isEqualTo(AdvertiseAddress.Kind.LOOPBACK);
        assertThat(AdvertiseAddress.parse("[::1]:80").kind()).isEqualTo(AdvertiseAddress.Kind.LOOPBACK);
        assertThat(AdvertiseAddress.parse("[::1]:80").authority()).isEqualTo("[::1]:80");
        assertThat(AdvertiseAddress.parse("LOCALHOST:80").kind()).isEqualTo(AdvertiseAddress.Kind.LOOPBACK);
        assertThat(AdvertiseAddress.parse("[0:0:0:0:0:0:0:0]:80").kind()).isEqualTo(AdvertiseAddress.Kind.WILDCARD);
        assertThat(AdvertiseAddress.parse("node-3.internal:7000").kind()).isEqualTo(AdvertiseAddress.Kind.OTHER);
        assertThat(AdvertiseAddress.parse("128.0.0.1:7000").kind()).isEqualTo(AdvertiseAddress.Kind.OTHER);
        for (String bad : new String[] {"", "x", "::1:80", "[::1]80", "h:99999", "h:port"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> AdvertiseAddress.parse(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
