package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DrainConditionTest {

    static final DrainCondition.Exit PRODUCTION = DrainCondition.Exit.AS_SPECIFIED;

    /**
     * Every combination of small counters on which {@code exit} disagrees with SPEC §10 step 3 as
     * written (Handoff: occupied == 0 && releasing == 0; Preserve: activating == 0 && evicting == 0;
     * both: no public request and no release task still running).
     */
    static List<String> specViolations(DrainCondition.Exit exit) {
        List<String> out = new ArrayList<>();
        int[] r = {0, 1, 2};
        for (int a : r) for (int b : r) for (int c : r) for (int d : r) for (int p : r) for (int u : r) {
            DrainCondition.Counters k = new DrainCondition.Counters(a, b, c, d, p, u);
            boolean requestsDone = p == 0 && u == 0;
            if (exit.drained(DrainCondition.Mode.HANDOFF, k) != (a == 0 && b == 0 && requestsDone)) {
                out.add("handoff " + k);
            }
            if (exit.drained(DrainCondition.Mode.PRESERVE, k) != (c == 0 && d == 0 && requestsDone)) {
                out.add("preserve " + k);
            }
        }
        return out;
    }

    @Test
    void productionAppliesSpecSection10AsWritten() {
        assertThat(specViolations(PRODUCTION)).isEmpty();
    }

    @Test
    void theTestsCatchADrainThatExitsOnOccupiedAlone() {
        assertThat(specViolations(DrainCondition.Exit.ON_OCCUPIED_ALONE))
                .as("the broken variant must be caught in both modes")
                .contains("handoff " + DrainCondition.Counters.cells(0, 1, 0, 0), "preserve " + DrainCondition.Counters.cells(0, 0, 0, 1));
    }

    @Test
    void aPreserveDrainLeavesResidentCellsAsTheyAre() {
        // SPEC §10: Preserve exits when activating == 0 && evicting == 0; resident cells keep their
        // ownership and local data for the next process (the old rule waited for occupied == 0 too).
        assertThat(PRODUCTION.drained(DrainCondition.Mode.PRESERVE, DrainCondition.Counters.cells(3, 0, 0, 0))).isTrue();
        assertThat(PRODUCTION.drained(DrainCondition.Mode.PRESERVE, DrainCondition.Counters.cells(3, 0, 1, 0)))
                .as("an activation in flight").isFalse();
        assertThat(PRODUCTION.drained(DrainCondition.Mode.PRESERVE, DrainCondition.Counters.cells(0, 0, 0, 1)))
                .as("a preserve's flush in flight").isFalse();
    }

    @Test
    void aReleaseStillInFlightKeepsAHandoffDrainGoing() {
        // the release left `occupied` but its ownership write has not landed
        assertThat(PRODUCTION.drained(DrainCondition.Mode.HANDOFF, DrainCondition.Counters.cells(0, 1, 0, 0))).isFalse();
        assertThat(PRODUCTION.drained(DrainCondition.Mode.HANDOFF, DrainCondition.Counters.cells(0, 0, 0, 0))).isTrue();
        // a release task that has not counted its outcome yet (the CAS landed, the log line did not)
        assertThat(PRODUCTION.drained(DrainCondition.Mode.HANDOFF, new DrainCondition.Counters(0, 0, 0, 0, 0, 1))).isFalse();
        // a public request still being answered (SPEC §10 step 1: requests in flight finish)
        assertThat(PRODUCTION.drained(DrainCondition.Mode.HANDOFF, new DrainCondition.Counters(0, 0, 0, 0, 1, 0))).isFalse();
        assertThat(PRODUCTION.drained(DrainCondition.Mode.PRESERVE, DrainCondition.Counters.cells(0, 0, 0, 0)))
                .as("an idle node exits at once").isTrue();
        assertThat(PRODUCTION.drained(DrainCondition.Mode.HANDOFF, DrainCondition.Counters.cells(0, 0, 0, 0)))
                .as("an idle node exits at once").isTrue();
    }

    @Test
    void aDrainedNodeKeepsAnsweringPeersUntilTheyGoQuiet() {
        long q = DrainCondition.PEER_QUIET_MS;
        assertThat(DrainCondition.listenerMayClose(0, q, 0)).as("no peer routed here lately: close at once").isTrue();
        assertThat(DrainCondition.listenerMayClose(0, q - 1, 10)).as("a peer asked just now: it may ask again").isFalse();
        assertThat(DrainCondition.listenerMayClose(1, 10 * q, 10)).as("a peer request is being answered").isFalse();
        assertThat(DrainCondition.listenerMayClose(3, 0, DrainCondition.LINGER_MAX_MS)).as("bounded").isTrue();
        assertThat(DrainCondition.listenerMayClose(0, 0, DrainCondition.LINGER_MAX_MS - 1)).isFalse();
    }

    @Test
    void warmHandoffHoldsADrainedNodeOnlyWithinItsBudget() {
        assertThat(DrainCondition.warmPokesMayStop(0, 0, 5_000)).as("every poke answered: go on at once").isTrue();
        assertThat(DrainCondition.warmPokesMayStop(3, 4_999, 5_000)).as("pokes pending, budget left: wait").isFalse();
        assertThat(DrainCondition.warmPokesMayStop(3, 5_000, 5_000)).as("budget spent: leave the rest to their requests").isTrue();
        assertThat(DrainCondition.warmPokesMayStop(3, 0, 0)).as("warming off never waits").isTrue();
        assertThatThrownBy(() -> DrainCondition.warmPokesMayStop(-1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void negativeCountersAreABug() {
        assertThatThrownBy(() -> DrainCondition.Counters.cells(-1, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DrainCondition.listenerMayClose(-1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
