package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Cloudflare's cron syntax: 5 fields, UTC, weekdays 1-7 with 1 = Sunday, L/W in day-of-month, L/# in day-of-week. */
class CronScheduleTest {
    static long at(String iso) {
        return Instant.parse(iso).toEpochMilli();
    }

    static String next(String cron, String fromIso) {
        return Instant.ofEpochMilli(CronSchedule.parse(cron).nextAfter(at(fromIso)).orElseThrow()).toString();
    }

    @Test
    void everyMinuteIsMinuteAlignedInUtc() {
        CronSchedule s = CronSchedule.parse("* * * * *");
        assertThat(s.latestAtOrBefore(at("2024-03-05T10:00:30.500Z"))).hasValue(at("2024-03-05T10:00:00Z"));
        assertThat(s.latestAtOrBefore(at("2024-03-05T10:01:00Z"))).hasValue(at("2024-03-05T10:01:00Z"));
        assertThat(s.nextAfter(at("2024-03-05T10:01:00Z"))).hasValue(at("2024-03-05T10:02:00Z"));
        assertThat(s.nextAfter(at("2024-03-05T10:00:59.999Z"))).hasValue(at("2024-03-05T10:01:00Z"));
        assertThat(s.expression()).isEqualTo("* * * * *");
    }

    @Test
    void stepsAndRanges() {
        assertThat(next("*/30 * * * *", "2024-03-05T10:00:00Z")).isEqualTo("2024-03-05T10:30:00Z");
        assertThat(next("45 * * * *", "2024-03-05T10:50:00Z")).isEqualTo("2024-03-05T11:45:00Z");
        assertThat(next("0 15 1 * *", "2024-03-05T10:00:00Z")).isEqualTo("2024-04-01T15:00:00Z");
    }

    @Test
    void weekdayOneIsSundayAndNamesAreCaseInsensitive() {
        // 2024-03-03 is a Sunday
        assertThat(next("0 17 * * 1", "2024-03-01T00:00:00Z")).isEqualTo("2024-03-03T17:00:00Z");
        assertThat(next("0 17 * * sun", "2024-03-01T00:00:00Z")).isEqualTo("2024-03-03T17:00:00Z");
        assertThat(next("10 7 * * mon-fri", "2024-03-02T00:00:00Z")).isEqualTo("2024-03-04T07:10:00Z");
        assertThat(next("10 7 * * 2-6", "2024-03-02T00:00:00Z")).isEqualTo("2024-03-04T07:10:00Z");
        assertThat(next("0 0 1 aug *", "2024-03-02T00:00:00Z")).isEqualTo("2024-08-01T00:00:00Z");
    }

    @Test
    void quartzExtensions() {
        // last Friday of March 2024 is the 29th
        assertThat(next("0 18 * * 6L", "2024-03-01T00:00:00Z")).isEqualTo("2024-03-29T18:00:00Z");
        assertThat(next("0 18 * * friL", "2024-03-01T00:00:00Z")).isEqualTo("2024-03-29T18:00:00Z");
        // last weekday of March 2024: the 31st is a Sunday, so Friday the 29th
        assertThat(next("59 23 LW * *", "2024-03-01T00:00:00Z")).isEqualTo("2024-03-29T23:59:00Z");
        assertThat(next("0 9 L * *", "2024-02-01T00:00:00Z")).isEqualTo("2024-02-29T09:00:00Z");
        // second Monday (weekday 2) of March 2024 is the 11th
        assertThat(next("0 10 * * 2#2", "2024-03-01T00:00:00Z")).isEqualTo("2024-03-11T10:00:00Z");
        assertThat(next("0 10 * * MON#2", "2024-03-01T00:00:00Z")).isEqualTo("2024-03-11T10:00:00Z");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "* * * *", "* * * * * *", "60 * * * *", "* 24 * * *", "* * 32 * *", "* * * 13 *",
            "* * * * 8", "hello world", "*/0 * * * *"})
    void anInvalidExpressionIsRefusedByName(String cron) {
        assertThatThrownBy(() -> CronSchedule.parse(cron)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid cron expression \"" + cron + "\"");
    }
}
