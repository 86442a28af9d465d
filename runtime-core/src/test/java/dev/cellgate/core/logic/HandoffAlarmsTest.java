package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.HandoffAlarms.Decision;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class HandoffAlarmsTest {
    static final long TICK = 30_000;
    static final long NOW = 1_000_000;

    @Test
    void anAlarmDueDuringOrJustAfterTheHandoffIsHandedToAPeer() {
        assertThat(HandoffAlarms.CORRECT.decide(true, OptionalLong.of(NOW + 2_500), NOW, TICK)).isEqualTo(Decision.POKE);
        assertThat(HandoffAlarms.CORRECT.decide(true, OptionalLong.of(NOW - 10), NOW, TICK)).as("already due: at once")
                .isEqualTo(Decision.POKE);
        assertThat(HandoffAlarms.CORRECT.decide(true, OptionalLong.of(NOW + TICK), NOW, TICK))
                .as("a tick ahead: the next scan might start after it").isEqualTo(Decision.POKE);
    }

    /** The window covers a waker lease that outlives a failed give-up (its TTL) plus a late scan. */
    @Test
    void theWindowIsTheWakerLeasesTtlAndATick() {
        assertThat(HandoffAlarms.windowMs(TICK)).isEqualTo(WakerLease.ttlMs(TICK) + TICK).isEqualTo(120_000);
        long edge = NOW + HandoffAlarms.windowMs(TICK);
        assertThat(HandoffAlarms.CORRECT.decide(true, OptionalLong.of(edge), NOW, TICK)).isEqualTo(Decision.POKE);
        assertThat(HandoffAlarms.CORRECT.decide(true, OptionalLong.of(edge + 1), NOW, TICK)).isEqualTo(Decision.LEFT_TO_WAKER);
    }

    @Test
    void nothingToHandWithoutAReleaseOrAnAlarm() {
        assertThat(HandoffAlarms.CORRECT.decide(false, OptionalLong.of(NOW + 1), NOW, TICK)).isEqualTo(Decision.NOT_RELEASED);
        assertThat(HandoffAlarms.CORRECT.decide(true, OptionalLong.empty(), NOW, TICK)).isEqualTo(Decision.NO_ALARM);
    }

    /** The broken variant the handoff test must catch: it leaves a due alarm to the next scan. */
    @Test
    void theBrokenVariantNeverPokes() {
        assertThat(HandoffAlarms.NEVER_POKE.decide(true, OptionalLong.of(NOW + 2_500), NOW, TICK)).isEqualTo(Decision.LEFT_TO_WAKER);
        assertThat(HandoffAlarms.NEVER_POKE.decide(true, OptionalLong.empty(), NOW, TICK)).isEqualTo(Decision.NO_ALARM);
    }

    @Test
    void aPokeUsesOnlyWhatIsLeftOfTheDrain() {
        assertThat(HandoffAlarms.pokeBudgetMs(1_000, 30_000)).hasValue(30_000 - 1_000 - HandoffAlarms.EXIT_MARGIN_MS);
        assertThat(HandoffAlarms.pokeBudgetMs(29_500, 30_000)).as("no time left: the waker's turn").isEmpty();
        assertThat(HandoffAlarms.pokeBudgetMs(31_000, 30_000)).isEmpty();
    }

    @Test
    void neverOverflowsAndRefusesABadTick() {
        assertThat(HandoffAlarms.CORRECT.decide(true, OptionalLong.of(Long.MAX_VALUE), Long.MAX_VALUE - 1, TICK))
                .isEqualTo(Decision.POKE);
        assertThatThrownBy(() -> HandoffAlarms.CORRECT.decide(true, OptionalLong.of(NOW), NOW, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("waker tick must be positive");
    }
}
