package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClockCheckTest {
    @Test
    void onlyADisagreementBeyondTheRoundTripAndTheDatesSecondCounts() {
        assertThat(ClockCheck.minOffsetMs(10_000, 10_050, 10_000)).isZero();
        assertThat(ClockCheck.minOffsetMs(10_900, 10_950, 10_000)).as("the Date truncates to the second").isZero();
        assertThat(ClockCheck.minOffsetMs(19_000, 19_050, 10_000)).as("ours ahead").isEqualTo(8_000);
        assertThat(ClockCheck.minOffsetMs(2_000, 2_050, 10_000)).as("ours behind").isEqualTo(-7_950);
    }

    @Test
    void warnsPastTheMarginOnceAMinuteAndSaysWhenItIsBack() {
        ClockCheck c = new ClockCheck(2_000);
        assertThat(c.observe(1_999, 0)).isEqualTo(ClockCheck.Report.NONE);
        assertThat(c.observe(-2_001, 0)).isEqualTo(ClockCheck.Report.BEYOND_MARGIN);
        assertThat(c.observe(8_000, 3_000)).isEqualTo(ClockCheck.Report.NONE);
        assertThat(c.observe(8_000, ClockCheck.REPEAT_MS)).isEqualTo(ClockCheck.Report.BEYOND_MARGIN);
        assertThat(c.observe(100, ClockCheck.REPEAT_MS + 1)).isEqualTo(ClockCheck.Report.BACK_WITHIN);
        assertThat(c.observe(100, ClockCheck.REPEAT_MS + 2)).isEqualTo(ClockCheck.Report.NONE);
    }
}
