package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class BackoffTest {
    final Backoff backoff = new Backoff(100, 5_000, 8);

    @Test
    void ceilingDoublesFromTheBaseUpToTheCap() {
        assertThat(backoff.ceilingMs(1)).isEqualTo(100);
        assertThat(backoff.ceilingMs(2)).isEqualTo(200);
        assertThat(backoff.ceilingMs(6)).isEqualTo(3_200);
        assertThat(backoff.ceilingMs(7)).isEqualTo(5_000);
        assertThat(backoff.ceilingMs(Integer.MAX_VALUE)).isEqualTo(5_000);
        assertThat(new Backoff(3, Long.MAX_VALUE, 100).ceilingMs(62)).isEqualTo(3L << 61);
        assertThat(new Backoff(3, Long.MAX_VALUE, 100).ceilingMs(63)).as("no overflow").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void fullJitterSpansZeroToTheCeiling() {
        SplittableRandom r = new SplittableRandom(7);
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < 5_000; i++) {
            long d = backoff.delayMs(3, r).orElseThrow();
            min = Math.min(min, d);
            max = Math.max(max, d);
        }
        assertThat(min).isLessThan(5);
        assertThat(max).isGreaterThan(395).isLessThanOrEqualTo(400);
    }

    @Test
    void stopsAfterTheLastAttempt() {
        assertThat(backoff.delayMs(7, new SplittableRandom(1))).isPresent();
        assertThat(backoff.delayMs(8, new SplittableRandom(1))).isEmpty();
        assertThat(new Backoff(1, 1, 1).delayMs(1, new SplittableRandom(1))).as("one attempt: no retry").isEmpty();
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> new Backoff(0, 10, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(10, 9, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(10, 90, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(10, 90, 3, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> backoff.delayMs(0, new SplittableRandom(1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Property
    void delayIsWithinTheCeilingAndReplaysFromTheSeed(@ForAll @IntRange(min = 1, max = 7) int failed,
                                                      @ForAll long seed,
                                                      @ForAll @LongRange(min = 1, max = 1_000) long base) {
        Backoff b = new Backoff(base, base * 30, 8);
        long d = b.delayMs(failed, new SplittableRandom(seed)).orElseThrow();
        assertThat(d).isBetween(0L, Math.min(base * 30, base << (failed - 1)));
        assertThat(b.delayMs(failed, new SplittableRandom(seed)).orElseThrow()).isEqualTo(d);
    }

    @Test
    void theDecisionStopsOnAnErrorNotWorthRetryingAndWhenTheAttemptsAreUsedUp() {
        SplittableRandom r = new SplittableRandom(3);
        assertThat(backoff.afterFailure(1, false, r)).isEqualTo(new Backoff.Next.GiveUp(false));
        assertThat(backoff.afterFailure(7, true, r)).isInstanceOf(Backoff.Next.RetryAfter.class);
        assertThat(backoff.afterFailure(8, true, r)).isEqualTo(new Backoff.Next.GiveUp(true));
        Backoff.Next n = backoff.afterFailure(3, true, new SplittableRandom(11));
        assertThat(n).isEqualTo(new Backoff.Next.RetryAfter(backoff.delayMs(3, new SplittableRandom(11)).orElseThrow()));
    }

    @Test
    void withoutJitterTheDelayIsTheCeiling() {
        Backoff exact = new Backoff(50, 1_000, 8, Backoff.Jitter.NONE);
        for (int f = 1; f < 8; f++) {
            assertThat(exact.delayMs(f, new SplittableRandom(f))).hasValue(exact.ceilingMs(f));
        }
        assertThat(exact.longestWaitMs()).isEqualTo(50 + 100 + 200 + 400 + 800 + 1_000 + 1_000);
        assertThat(new Backoff(1, 1, 1).longestWaitMs()).isZero();
    }

    /** Dead-node GC's rest (formerly GcBackoff): one tick, doubling, capped at 64 ticks, never giving up. */
    @Test
    void aTickBackoffIsOneTickDoublingUpToItsCapForever() {
        Backoff gc = Backoff.ticks(1_000, 64);
        List<Long> seq = new ArrayList<>();
        for (int f = 1; f <= 10; f++) {
            seq.add(gc.ceilingMs(f) / 1_000);
        }
        assertThat(seq).containsExactly(1L, 2L, 4L, 8L, 16L, 32L, 64L, 64L, 64L, 64L);
        assertThat(gc.afterFailure(Integer.MAX_VALUE - 1, true, new SplittableRandom(1)))
                .isEqualTo(new Backoff.Next.RetryAfter(64_000));
        assertThat(Backoff.ticks(60_000, 64).ceilingMs(100)).isEqualTo(64 * 60_000L);
        assertThatThrownBy(() -> Backoff.ticks(0, 64)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Backoff.ticks(Long.MAX_VALUE, 64)).isInstanceOf(ArithmeticException.class);
    }

    @Property
    void aTickBackoffNeverShrinksAndNeverExceedsItsCap(@ForAll @IntRange(min = 1, max = 1_000_000) int failures) {
        Backoff gc = Backoff.ticks(1, 64);
        long d = gc.ceilingMs(failures);
        assertThat(d).isBetween(1L, 64L);
        assertThat(gc.ceilingMs(failures + 1)).isEqualTo(Math.min(64, 2 * d));
    }
}
