package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WakeHorizonTest {
    @Test
    void looksOneAndAHalfTicksAhead() {
        assertThat(WakeHorizon.horizonMs(100_000, 30_000)).isEqualTo(145_000);
        assertThat(WakeHorizon.horizonMs(0, 1_000)).isEqualTo(1_500);
        assertThat(WakeHorizon.horizonMs(0, 3)).as("odd ticks round down, never below one tick").isEqualTo(4);
    }

    /** The case the look-ahead exists for: a scan 10 s before a minute starts, an alarm 5 s into it. */
    @Test
    void anEntryOfTheNextMinuteIsWokenWhenItComesBeforeTheNextScan() {
        long minute = 120_000;
        long scan = minute - 10_000;
        assertThat(WakeHorizon.wakesNow(minute, scan, 30_000)).isTrue();
        assertThat(WakeKeys.isDue(new WakeKeys.WakeEntry(minute, "x"), scan)).as("the plain due test would wait a tick").isFalse();
        assertThat(WakeHorizon.wakesNow(minute, minute - 45_001, 30_000)).as("beyond the horizon: a later scan").isFalse();
        assertThat(WakeHorizon.wakesNow(minute, minute - 45_000, 30_000)).isTrue();
    }

    @Test
    void neverOverflowsAndRefusesABadTick() {
        assertThat(WakeHorizon.horizonMs(Long.MAX_VALUE - 1, 30_000)).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> WakeHorizon.horizonMs(0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("waker tick must be positive");
    }
}
