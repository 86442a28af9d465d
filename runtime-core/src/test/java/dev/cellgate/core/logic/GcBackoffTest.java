package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class GcBackoffTest {

    @Test
    void oneTickDoublingCappedAtSixtyFour() {
        List<Long> seq = new ArrayList<>();
        for (int f = 1; f <= 10; f++) {
            seq.add(GcBackoff.retryDelayTicks(f));
        }
        assertThat(seq).containsExactly(1L, 2L, 4L, 8L, 16L, 32L, 64L, 64L, 64L, 64L);
        assertThat(GcBackoff.retryDelayTicks(Integer.MAX_VALUE)).isEqualTo(64);
    }

    @Test
    void millisecondsAreTicksTimesTheTick() {
        assertThat(GcBackoff.retryDelayMs(1, 60_000)).isEqualTo(60_000);
        assertThat(GcBackoff.retryDelayMs(4, 1_000)).isEqualTo(8_000);
        assertThat(GcBackoff.retryDelayMs(100, 60_000)).isEqualTo(64 * 60_000L);
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> GcBackoff.retryDelayTicks(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GcBackoff.retryDelayTicks(-3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GcBackoff.retryDelayMs(1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GcBackoff.retryDelayMs(100, Long.MAX_VALUE)).isInstanceOf(ArithmeticException.class);
    }

    @Property
    void delayNeverShrinksAndNeverExceedsTheCap(@ForAll @IntRange(min = 1, max = 1_000_000) int failures) {
        long d = GcBackoff.retryDelayTicks(failures);
        assertThat(d).isBetween(1L, GcBackoff.MAX_TICKS);
        assertThat(GcBackoff.retryDelayTicks(failures + 1)).isGreaterThanOrEqualTo(d);
        assertThat(GcBackoff.retryDelayTicks(failures + 1)).isEqualTo(Math.min(GcBackoff.MAX_TICKS, 2 * d));
    }
}
