package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class SheddingTest {

    static Shedding.Resident idle(String s, long used) {
        return new Shedding.Resident(s, used, 0, 0);
    }

    @Test
    void overTheMaxShedsToTheLowWaterMark() {
        assertThat(Shedding.target(11, 10, 8, false)).isEqualTo(8);
        assertThat(Shedding.target(10, 10, 8, false)).as("at the max: nothing to do").isEqualTo(10);
        assertThat(Shedding.target(500, -1, -1, false)).as("unlimited").isEqualTo(500);
    }

    @Test
    void memoryPressureShedsAShareEachRound() {
        assertThat(Shedding.target(100, -1, -1, true)).isEqualTo(80);
        assertThat(Shedding.target(5, 10, 8, true)).isEqualTo(4);
        assertThat(Shedding.target(20, 10, 8, true)).as("both: the lower").isEqualTo(8);
        assertThat(Shedding.target(0, -1, -1, true)).isZero();
    }

    @Test
    void badLimitsAreRejected() {
        assertThatThrownBy(() -> Shedding.target(1, 10, 11, false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Shedding.target(1, 10, -1, false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Shedding.target(-1, 10, 5, false)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void leastRecentlyUsedIdleCellsGoFirstAndBusyOnesNever() {
        List<Shedding.Resident> cells = List.of(idle("a", 50), new Shedding.Resident("busy", 1, 1, 0),
                new Shedding.Resident("socket", 2, 0, 3), idle("c", 10), idle("b", 10), idle("d", 99));
        assertThat(Shedding.victims(cells, 3)).containsExactly("b", "c", "a");
        assertThat(Shedding.victims(cells, 0)).containsExactly("b", "c", "a", "d");
        assertThat(Shedding.victims(cells, 6)).isEmpty();
        assertThat(Shedding.victims(cells, 100)).isEmpty();
    }

    @Property
    void victimsAreIdleOldestFirstAndJustEnough(@ForAll("cells") List<Shedding.Resident> cells,
                                               @ForAll @IntRange(min = 0, max = 20) int target) {
        List<String> victims = Shedding.victims(cells, target);
        Map<String, Shedding.Resident> byScope = cells.stream().collect(Collectors.toMap(Shedding.Resident::scope, Function.identity()));
        long idleCount = cells.stream().filter(Shedding.Resident::idle).count();
        assertThat(victims).doesNotHaveDuplicates();
        assertThat(victims).hasSize((int) Math.min(idleCount, Math.max(0, cells.size() - target)));
        assertThat(victims).allSatisfy(v -> assertThat(byScope.get(v).idle()).isTrue());
        long newestVictim = victims.stream().mapToLong(v -> byScope.get(v).lastUsedMs()).max().orElse(Long.MIN_VALUE);
        for (Shedding.Resident r : cells) {
            if (r.idle() && !victims.contains(r.scope())) {
                assertThat(r.lastUsedMs()).as("an idle survivor is never older than a victim").isGreaterThanOrEqualTo(newestVictim);
            }
        }
    }

    @Provide
    Arbitrary<List<Shedding.Resident>> cells() {
        Arbitrary<Shedding.Resident> one = Combinators.combine(Arbitraries.strings().alpha().ofLength(6),
                Arbitraries.longs().between(0, 50), Arbitraries.of(0, 0, 1), Arbitraries.of(0, 0, 2))
                .as(Shedding.Resident::new);
        return one.list().ofMaxSize(20).uniqueElements(Shedding.Resident::scope);
    }
}
