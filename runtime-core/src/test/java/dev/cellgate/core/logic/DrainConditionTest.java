package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DrainConditionTest {

    @Test
    void exhaustiveOverSmallCounters() {
        for (int a = 0; a <= 2; a++) {
            for (int b = 0; b <= 2; b++) {
                for (int c = 0; c <= 2; c++) {
                    for (int d = 0; d <= 2; d++) {
                        DrainCondition.Counters k = new DrainCondition.Counters(a, b, c, d);
                        assertThat(DrainCondition.drained(DrainCondition.Mode.HANDOFF, k)).as("handoff %s", k)
                                .isEqualTo(a == 0 && b == 0);
                        assertThat(DrainCondition.drained(DrainCondition.Mode.PRESERVE, k)).as("preserve %s", k)
                                .isEqualTo(c == 0 && d == 0);
                    }
                }
            }
        }
    }

    @Test
    void aReleaseStillInFlightKeepsAHandoffDrainGoing() {
        // the release left `occupied` but its ownership write has not landed
        assertThat(DrainCondition.handoffDone(0, 1)).isFalse();
        assertThat(DrainCondition.handoffDone(0, 0)).isTrue();
        assertThat(DrainCondition.preserveDone(0, 0)).as("an idle node exits at once").isTrue();
        assertThat(DrainCondition.preserveDone(1, 0)).isFalse();
        assertThat(DrainCondition.preserveDone(0, 1)).isFalse();
    }

    @Test
    void negativeCountersAreABug() {
        assertThatThrownBy(() -> DrainCondition.handoffDone(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
