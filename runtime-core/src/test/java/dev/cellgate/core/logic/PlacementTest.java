package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.records.LeaseRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** SPEC §9: an unowned cell a node cannot take goes to a live node with capacity, the least loaded. */
class PlacementTest {
    static final Liveness LIVENESS = Liveness.withSkew(2_000);
    static final long NOW = 1_000_000;

    static LeaseRecord lease(String node, long expires, LeaseRecord.Load load) {
        return new LeaseRecord(node, "s", "h:1", 1, 0, expires, load);
    }

    static LeaseRecord live(String node, int resident) {
        return lease(node, NOW + 5_000, new LeaseRecord.Load(resident, 100, false, 0));
    }

    @Test
    void onlyLiveOtherNodesWithCapacityAreCandidates() {
        List<LeaseRecord> leases = List.of(
                lease("expired", NOW - 2_000, LeaseRecord.Load.IDLE),
                lease("tombstone", 0, LeaseRecord.Load.IDLE),
                lease("pressured", NOW + 5_000, new LeaseRecord.Load(1, 100, true, 0)),
                lease("full", NOW + 5_000, new LeaseRecord.Load(100, 100, false, 0)),
                live("me", 0),
                live("ok", 50));
        assertThat(Placement.pick(leases, "me", NOW, LIVENESS)).contains("ok");
        assertThat(Placement.pick(List.of(live("me", 0)), "me", NOW, LIVENESS)).as("never this node").isEmpty();
        assertThat(Placement.pick(List.of(), "me", NOW, LIVENESS)).isEmpty();
    }

    @Test
    void aLeaseJustPastItsExpiryIsStillLiveWithinTheMargin() {
        LeaseRecord behind = lease("behind", NOW - 1_999, LeaseRecord.Load.IDLE);
        assertThat(Placement.pick(List.of(behind), "me", NOW, LIVENESS)).contains("behind");
        assertThat(Placement.pick(List.of(behind), "me", NOW + 1, LIVENESS)).isEmpty();
    }

    @Test
    void theLeastLoadedWinsAndTiesGoToTheSmallerName() {
        assertThat(Placement.pick(List.of(live("b", 3), live("a", 7), live("c", 2)), "me", NOW, LIVENESS)).contains("c");
        assertThat(Placement.pick(List.of(live("b", 2), live("c", 2), live("a", 2)), "me", NOW, LIVENESS)).contains("a");
    }

    @Property
    void everyNodeReadingTheSameLeasesPicksTheSameOne(@ForAll @IntRange(min = 1, max = 12) int n,
                                                     @ForAll @IntRange(min = 1, max = 1_000) int seed) {
        java.util.Random r = new java.util.Random(seed);
        List<LeaseRecord> leases = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            leases.add(live("n" + i, r.nextInt(4)));
        }
        List<LeaseRecord> shuffled = new ArrayList<>(leases);
        Collections.shuffle(shuffled, r);
        assertThat(Placement.pick(shuffled, "other", NOW, LIVENESS)).isEqualTo(Placement.pick(leases, "other", NOW, LIVENESS));
    }
}
