package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class AlarmRetryTest {

    @Test
    void sixRetriesFromTwoSecondsDoubling() {
        List<Long> delays = new ArrayList<>();
        int failed = 1;
        for (OptionalLong d = AlarmRetry.nextDelayMs(failed); d.isPresent(); d = AlarmRetry.nextDelayMs(++failed)) {
            delays.add(d.getAsLong());
        }
        assertThat(delays).containsExactly(2_000L, 4_000L, 8_000L, 16_000L, 32_000L, 64_000L);
        assertThat(failed).as("attempts in all: the first and six retries").isEqualTo(7);
        assertThat(AlarmRetry.nextDelayMs(100)).isEmpty();
    }

    @Test
    void retryCountIsTheNumberOfEarlierFailures() {
        assertThat(AlarmRetry.retryCount(0)).as("first run").isZero();
        assertThat(AlarmRetry.retryCount(6)).isEqualTo(6);
        assertThatThrownBy(() -> AlarmRetry.retryCount(7)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AlarmRetry.nextDelayMs(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
