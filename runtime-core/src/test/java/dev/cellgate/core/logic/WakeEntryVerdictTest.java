package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.WakeEntryVerdict.Action;
import dev.cellgate.core.logic.WakeEntryVerdict.Memory;
import dev.cellgate.core.logic.WakeEntryVerdict.Reply;
import java.util.OptionalLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class WakeEntryVerdictTest {
    static final long MIN = 60_000;
    static final long M = 1_700_000_040_000L - 1_700_000_040_000L % MIN;
    static final long TICK = 60_000;
    static final WakeEntryVerdict V = WakeEntryVerdict.CORRECT;

    @Test
    void theHostKeepsAnEntryOnlyWhileTheStoredAlarmFallsInItsMinute() {
        assertThat(V.forStoredAlarm(M, OptionalLong.of(M))).isEqualTo(Action.KEEP);
        assertThat(V.forStoredAlarm(M, OptionalLong.of(M + MIN - 1))).isEqualTo(Action.KEEP);
        assertThat(V.forStoredAlarm(M, OptionalLong.of(M + MIN))).as("moved to the next minute").isEqualTo(Action.DELETE);
        assertThat(V.forStoredAlarm(M, OptionalLong.of(M - 1))).as("moved earlier").isEqualTo(Action.DELETE);
        assertThat(V.forStoredAlarm(M, OptionalLong.empty())).as("no alarm").isEqualTo(Action.DELETE);
    }

    @Property
    void theHostsVerdictIsExactlySameMinute(@ForAll @LongRange(min = 0, max = 4_000_000_000_000L) long entry,
                                            @ForAll @LongRange(min = 0, max = 4_000_000_000_000L) long alarm) {
        long minute = WakeKeys.minuteOf(entry);
        assertThat(V.forStoredAlarm(minute, OptionalLong.of(alarm)))
                .isEqualTo(WakeKeys.minuteOf(alarm) == minute ? Action.KEEP : Action.DELETE);
    }

    @Test
    void aKeptOrDroppedEntryNeedsNothingMoreAndIsForgotten() {
        Memory failedBefore = new Memory(5, 1, M + 10 * TICK);
        for (Reply r : new Reply[] {Reply.KEPT, Reply.DROPPED}) {
            WakeEntryVerdict.Verdict v = V.afterWake(r, failedBefore, M, TICK);
            assertThat(v.action()).isEqualTo(Action.KEEP);
            assertThat(v.memory()).isEqualTo(Memory.NONE);
        }
    }

    @Test
    void aMissingClassIsDeletedOnlyOnTheSecondSighting() {
        WakeEntryVerdict.Verdict first = V.afterWake(Reply.NO_CLASS, Memory.NONE, M, TICK);
        assertThat(first.action()).isEqualTo(Action.RETRY_LATER);
        assertThat(first.memory().noClassSightings()).isEqualTo(1);
        assertThat(first.memory().resting(M + TICK)).as("looked at again on the next pass").isFalse();
        assertThat(first.memory().resting(M + TICK / 4)).isTrue();
        WakeEntryVerdict.Verdict second = V.afterWake(Reply.NO_CLASS, first.memory(), M + TICK, TICK);
        assertThat(second.action()).isEqualTo(Action.DELETE);
        assertThat(second.memory()).isEqualTo(Memory.NONE);
    }

    @Test
    void aClassThatCameBackStartsTheCountOver() {
        Memory seenOnce = V.afterWake(Reply.NO_CLASS, Memory.NONE, M, TICK).memory();
        Memory kept = V.afterWake(Reply.KEPT, seenOnce, M + TICK, TICK).memory();
        assertThat(V.afterWake(Reply.NO_CLASS, kept, M + 2 * TICK, TICK).action()).isEqualTo(Action.RETRY_LATER);
    }

    @Test
    void failuresAndUnreadableAnswersRestOneTickThenTwoSoAnAlarmIsNeverLateByMore() {
        for (Reply failure : new Reply[] {null, Reply.UNKNOWN}) {
            Memory m = Memory.NONE;
            long now = M;
            long[] expectedTicks = {1, 2, 2, 2, 2, 2, 2, 2, 2};
            for (long ticks : expectedTicks) {
                WakeEntryVerdict.Verdict v = V.afterWake(failure, m, now, TICK);
                assertThat(v.action()).isEqualTo(Action.RETRY_LATER);
                m = v.memory();
                assertThat(m.resting(now + ticks * TICK - TICK / 2 - 1)).as("resting before %d ticks", ticks).isTrue();
                assertThat(m.resting(now + ticks * TICK)).as("ready after %d ticks", ticks).isFalse();
                now += ticks * TICK;
            }
            assertThat(m.failures()).isEqualTo(expectedTicks.length);
        }
    }

    @Property
    void noAnswerButAMissingClassSeenTwiceEverDeletes(@ForAll Reply reply, @ForAll @IntRange(min = 0, max = 100) int failures,
                                                       @ForAll @IntRange(min = 0, max = 1) int sightings) {
        Memory before = new Memory(failures, sightings, Long.MIN_VALUE);
        WakeEntryVerdict.Verdict v = V.afterWake(reply, before, M, TICK);
        assertThat(v.action() == Action.DELETE).isEqualTo(reply == Reply.NO_CLASS && sightings == 1);
        WakeEntryVerdict.Verdict failed = V.afterWake(null, before, M, TICK);
        assertThat(failed.action()).isEqualTo(Action.RETRY_LATER);
        assertThat(failed.memory().restUntilMs()).isGreaterThan(M);
    }

    @Test
    void theBrokenVariantNeverDeletes() {
        WakeEntryVerdict b = WakeEntryVerdict.NEVER_DELETES;
        assertThat(b.forStoredAlarm(M, OptionalLong.empty())).isEqualTo(Action.KEEP);
        Memory seen = b.afterWake(Reply.NO_CLASS, Memory.NONE, M, TICK).memory();
        assertThat(b.afterWake(Reply.NO_CLASS, seen, M + TICK, TICK).action()).isNotEqualTo(Action.DELETE);
        assertThat(WakeEntryVerdict.CORRECT.dropsInOrder()).isTrue();
        assertThat(WakeEntryVerdict.DROPS_OUT_OF_ORDER.dropsInOrder()).isFalse();
    }
}
