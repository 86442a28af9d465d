package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.records.LeaseRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class PlacementTest {
    static final Liveness LIVENESS = Liveness.withSkew(0); // the exact rule: clocks agree
    static final long NOW = 1_000_000;
    static final String SCOPE = "Counter:" + "ab".repeat(32);

    static Placement.NodeLease lease(String node, long expires, LeaseRecord.Load load) {
        return new Placement.NodeLease(node, new LeaseRecord(node, "s", "h:1", 1, 0, expires, load));
    }

    static Placement.NodeLease live(String node) {
        return lease(node, NOW + 5_000, LeaseRecord.Load.IDLE);
    }

    @Test
    void onlyLiveNodesWithCapacityAndAMatchingKeyAreCandidates() {
        List<Placement.NodeLease> leases = List.of(
                lease("expired", NOW, LeaseRecord.Load.IDLE),
                lease("tombstone", 0, LeaseRecord.Load.IDLE),
                lease("pressured", NOW + 5_000, new LeaseRecord.Load(1, 100, true, 0)),
                lease("full", NOW + 5_000, new LeaseRecord.Load(100, 100, false, 0)),
                new Placement.NodeLease("keyname", live("bodyname").lease()),
                live("ok"));
        for (int i = 0; i < 200; i++) {
            String scope = "C:" + String.format("%064x", i);
            assertThat(Placement.pick(scope, leases, NOW, LIVENESS)).contains("ok");
        }
        assertThat(Placement.pick(SCOPE, leases, NOW, LIVENESS, Set.of("ok"))).isEmpty();
        assertThat(Placement.pick(SCOPE, List.of(), NOW, LIVENESS)).isEmpty();
    }

    @Test
    void cellsSpreadOverTheEligibleNodes() {
        List<Placement.NodeLease> leases = List.of(live("a"), live("b"), live("c"));
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 3_000; i++) {
            counts.merge(Placement.pick("C:" + String.format("%064x", i), leases, NOW, LIVENESS).orElseThrow(), 1, Integer::sum);
        }
        assertThat(counts).containsOnlyKeys("a", "b", "c");
        assertThat(counts.values()).allSatisfy(n -> assertThat(n).isBetween(850, 1_150));
    }

    @Property
    void thePickIsIndependentOfTheListingOrder(@ForAll("leaseSets") List<Placement.NodeLease> leases, @ForAll long shuffleSeed) {
        List<Placement.NodeLease> shuffled = new ArrayList<>(leases);
        Collections.shuffle(shuffled, new Random(shuffleSeed));
        assertThat(Placement.pick(SCOPE, shuffled, NOW, LIVENESS)).isEqualTo(Placement.pick(SCOPE, leases, NOW, LIVENESS));
    }

    @Property
    void removingAnotherNodeNeverMovesTheCell(@ForAll("leaseSets") List<Placement.NodeLease> leases,
                                              @ForAll @IntRange(min = 0, max = 7) int victim) {
        Optional<String> before = Placement.pick(SCOPE, leases, NOW, LIVENESS);
        if (before.isEmpty() || leases.isEmpty()) {
            return;
        }
        Placement.NodeLease removed = leases.get(victim % leases.size());
        if (removed.keyNode().equals(before.get())) {
            return;
        }
        List<Placement.NodeLease> fewer = new ArrayList<>(leases);
        fewer.remove(removed);
        assertThat(Placement.pick(SCOPE, fewer, NOW, LIVENESS)).isEqualTo(before);
    }

    @Property
    void thePickIsAlwaysEligible(@ForAll("leaseSets") List<Placement.NodeLease> leases) {
        Placement.pick(SCOPE, leases, NOW, LIVENESS).ifPresent(node -> assertThat(leases).anySatisfy(l -> {
            assertThat(l.keyNode()).isEqualTo(node);
            assertThat(Placement.eligible(l, NOW, LIVENESS)).isTrue();
        }));
        if (leases.stream().anyMatch(l -> Placement.eligible(l, NOW, LIVENESS))) {
            assertThat(Placement.pick(SCOPE, leases, NOW, LIVENESS)).isPresent();
        }
    }

    @Provide
    Arbitrary<List<Placement.NodeLease>> leaseSets() {
        Arbitrary<Placement.NodeLease> one = net.jqwik.api.Combinators.combine(
                net.jqwik.api.Arbitraries.of("a", "b", "c", "d", "e", "f", "g", "h"),
                net.jqwik.api.Arbitraries.longs().between(NOW - 10, NOW + 10),
                net.jqwik.api.Arbitraries.integers().between(0, 4),
                net.jqwik.api.Arbitraries.of(true, false, false, false)).as((n, exp, resident, pressured) ->
                lease(n, exp, new LeaseRecord.Load(resident, 3, pressured, 0)));
        return one.list().ofMaxSize(8).uniqueElements(Placement.NodeLease::keyNode);
    }
}
