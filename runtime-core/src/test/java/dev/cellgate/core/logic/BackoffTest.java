package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
