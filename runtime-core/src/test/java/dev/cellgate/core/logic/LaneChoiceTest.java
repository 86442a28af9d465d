package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LaneChoiceTest {
    static final long MS = 1_000_000L;
    static final long NOW = 10_000 * MS;
    static final long HELD_AFTER = 50 * MS;

    private static int choose(long[] lanes, int preferred, long now, long heldAfter, int maxLanes) {
        return LaneChoice.choose(lanes.length, i -> lanes[i], preferred, now, heldAfter, maxLanes);
    }

    @Test
    void noLaneYetOpensOne() {
        assertThat(choose(new long[0], 3, NOW, HELD_AFTER, 4)).isEqualTo(LaneChoice.NEW_LANE);
    }

    @Test
    void aRequestStaysOnItsPreferredLaneWhileThatLaneIsNotHeld() {
        long[] lanes = {0, NOW - 10 * MS};
        assertThat(choose(lanes, 0, NOW, HELD_AFTER, 4)).isEqualTo(0);
        assertThat(choose(lanes, 1, NOW, HELD_AFTER, 4)).as("busy, but not for long").isEqualTo(1);
        assertThat(choose(lanes, 5, NOW, HELD_AFTER, 4)).as("taken modulo the lane count").isEqualTo(1);
    }

    @Test
    void aHeldLaneIsPassedOverForTheNextFreeOne() {
        long[] lanes = {NOW - 2_000 * MS, NOW - 60 * MS, 0};
        assertThat(choose(lanes, 0, NOW, HELD_AFTER, 3)).isEqualTo(2);
        assertThat(choose(lanes, 1, NOW, HELD_AFTER, 3)).isEqualTo(2);
    }

    @Test
    void allHeldOpensANewLaneWhileTheNodeAllowsOne() {
        long[] lanes = {NOW - 2_000 * MS, NOW - 60 * MS};
        assertThat(choose(lanes, 1, NOW, HELD_AFTER, 3)).isEqualTo(LaneChoice.NEW_LANE);
    }

    @Test
    void allHeldAndNoRoomLeftQueuesBehindThePreferredLane() {
        long[] lanes = {NOW - 2_000 * MS, NOW - 60 * MS};
        assertThat(choose(lanes, 1, NOW, HELD_AFTER, 2)).isEqualTo(1);
    }

    @Test
    void aTurnExactlyAtTheBoundIsNotHeldYet() {
        assertThat(LaneChoice.held(NOW - HELD_AFTER, NOW, HELD_AFTER)).isFalse();
        assertThat(LaneChoice.held(NOW - HELD_AFTER - 1, NOW, HELD_AFTER)).isTrue();
        assertThat(LaneChoice.held(0, NOW, HELD_AFTER)).as("0 means no turn runs").isFalse();
    }
}
