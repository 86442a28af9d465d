package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DrainConditionTest {

    @Test
    void exhaustiveOverSmallCounters() {
        int[] r = {0, 1, 2};
        for (int a : r) for (int b : r) for (int c : r) for (int d : r) for (int p : r) for (int u : r) {
            DrainCondition.Counters k = new DrainCondition.Counters(a, b, c, d, p, u);
            boolean requestsDone = p == 0 && u == 0;
            assertThat(DrainCondition.drained(DrainCondition.Mode.HANDOFF, k)).as("handoff %s", k)
                    .isEqualTo(a == 0 && b == 0 && requestsDone);
            assertThat(DrainCondition.drained(DrainCondition.Mode.PRESERVE, k)).as("preserve %s", k)
                    .isEqualTo(a == 0 && c == 0 && d == 0 && requestsDone);
        }
    }

    @Test
    void aReleaseStillInFlightKeepsAHandoffDrainGoing() {
        // the release left `occupied` but its ownership write has not landed
        assertThat(DrainCondition.drained(DrainCondition.Mode.HANDOFF, DrainCondition.Counters.cells(0, 1, 0, 0))).isFalse();
        assertThat(DrainCondition.drained(DrainCondition.Mode.HANDOFF, DrainCondition.Counters.cells(0, 0, 0, 0))).isTrue();
        // a release task that has not counted its outcome yet (the CAS landed, the log line did not)
        assertThat(DrainCondition.drained(DrainCondition.Mode.HANDOFF, new DrainCondition.Counters(0, 0, 0, 0, 0, 1))).isFalse();
        assertThat(DrainCondition.drained(DrainCondition.Mode.PRESERVE, DrainCondition.Counters.cells(0, 0, 0, 0)))
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
