package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WakeKeysTest {
    static final String SCOPE = "Alarm:" + "0f".repeat(32);

    @Test
    void keyIsTheUtcMinuteOfTheAlarm() {
        long t = Instant.parse("2024-03-05T07:08:59.999Z").toEpochMilli();
        assertThat(WakeKeys.key(t, SCOPE)).isEqualTo("wake/2024-03-05T07:08/" + SCOPE);
        assertThat(WakeKeys.key(0, SCOPE)).isEqualTo("wake/1970-01-01T00:00/" + SCOPE);
        assertThat(WakeKeys.key(WakeKeys.MAX_ALARM_MS, SCOPE)).isEqualTo("wake/9999-12-31T23:59/" + SCOPE);
        assertThat(WakeKeys.minutePrefix(t)).isEqualTo("wake/2024-03-05T07:08/");
    }

    @Test
    void parseGivesTheMinuteStartAndTheScope() {
        long minute = Instant.parse("2024-03-05T07:08:00Z").toEpochMilli();
        assertThat(WakeKeys.parse("wake/2024-03-05T07:08/" + SCOPE)).contains(new WakeKeys.WakeEntry(minute, SCOPE));
    }

    @ParameterizedTest
    @ValueSource(strings = {"wake/waker.json", "wake/", "wake/2024-03-05T07:08",
            "wake/2024-03-05T07:08/bad/", "wake/2024-02-30T07:08/" + "Alarm:" + "0f0f", "wake/2024-02-30T07:08/X:" + "00",
            "wake/2024-13-05T07:08/", "wake/2024-3-05T07:08/", "wake/2024-03-05 07:08/", "wake/2024-03-05T24:00/",
            "wake/2024-03-05T07:60/", "wake/+2024-03-05T07:08/", "wake/2024-03-05T07:08:00/", "wakes/2024-03-05T07:08/",
            "nodes/n1.json"})
    void rejectsAnythingNotCanonical(String key) {
        assertThat(WakeKeys.parse(key)).isEmpty();
        assertThat(WakeKeys.parse(key + SCOPE)).isEmpty();
    }

    @Test
    void rejectsImpossibleDatesWithAValidScope() {
        assertThat(WakeKeys.parse("wake/2023-02-29T00:00/" + SCOPE)).isEmpty();
        assertThat(WakeKeys.parse("wake/2024-02-29T00:00/" + SCOPE)).isPresent();
        assertThat(WakeKeys.parse("wake/2024-03-05T07:08/" + SCOPE + "/x")).isEmpty();
        assertThat(WakeKeys.parse(null)).isEmpty();
    }

    @Test
    void dueOnceTheMinuteHasBegun() {
        long minute = Instant.parse("2024-03-05T07:08:00Z").toEpochMilli();
        WakeKeys.WakeEntry e = new WakeKeys.WakeEntry(minute, SCOPE);
        assertThat(WakeKeys.isDue(e, minute - 1)).isFalse();
        assertThat(WakeKeys.isDue(e, minute)).isTrue();
        assertThat(WakeKeys.isDue(e, minute + 59_999)).isTrue();
        assertThat(WakeKeys.isDue(e, minute + 3_600_000)).as("overdue stays due").isTrue();
    }

    @Test
    void rejectsTimesOutsideTheFixedWidthYears() {
        assertThatThrownBy(() -> WakeKeys.key(-1, SCOPE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WakeKeys.key(WakeKeys.MAX_ALARM_MS + 1, SCOPE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WakeKeys.key(0, "not-a-scope")).isInstanceOf(IllegalArgumentException.class);
    }

    @Property
    void parseInvertsKeyUpToTheMinute(@ForAll @LongRange(min = 0, max = WakeKeys.MAX_ALARM_MS) long t,
                                      @ForAll("scopes") String scope) {
        WakeKeys.WakeEntry e = WakeKeys.parse(WakeKeys.key(t, scope)).orElseThrow();
        assertThat(e.scope()).isEqualTo(scope);
        assertThat(e.minuteMs()).isEqualTo(WakeKeys.minuteOf(t)).isLessThanOrEqualTo(t).isGreaterThan(t - 60_000);
        assertThat(WakeKeys.sameMinute(e.minuteMs(), t)).isTrue();
        assertThat(WakeKeys.key(e.minuteMs(), scope)).isEqualTo(WakeKeys.key(t, scope));
    }

    @Property
    void keyOrderIsTimeOrder(@ForAll @LongRange(min = 0, max = WakeKeys.MAX_ALARM_MS) long a,
                             @ForAll @LongRange(min = 0, max = WakeKeys.MAX_ALARM_MS) long b,
                             @ForAll("scopes") String sa, @ForAll("scopes") String sb) {
        // the waker stops its listing at the first future minute: that is only right if keys sort by time
        if (WakeKeys.minuteOf(a) < WakeKeys.minuteOf(b)) {
            assertThat(WakeKeys.key(a, sa)).isLessThan(WakeKeys.key(b, sb));
        }
        assertThat(WakeKeys.key(a, sa)).isLessThan(Keys.WAKER);
    }

    @Property
    void anEntryIsDueExactlyFromItsMinuteOn(@ForAll @LongRange(min = 0, max = WakeKeys.MAX_ALARM_MS) long t,
                                            @ForAll @LongRange(min = -120_000, max = 120_000) long delta) {
        WakeKeys.WakeEntry e = WakeKeys.parse(WakeKeys.key(t, SCOPE)).orElseThrow();
        assertThat(WakeKeys.isDue(e, e.minuteMs() + delta)).isEqualTo(delta >= 0);
    }

    @Provide
    Arbitrary<String> scopes() {
        return LogicArbitraries.scopes();
    }
}
