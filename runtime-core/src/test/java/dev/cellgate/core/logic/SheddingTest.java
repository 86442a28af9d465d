package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Shedding.Admit;
import dev.cellgate.core.logic.Shedding.IdleAction;
import dev.cellgate.core.logic.Shedding.Resident;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** SPEC §9: who is admitted, who is shed, who is evicted when idle. */
class SheddingTest {
    static final OptionalInt NO_LIMIT = OptionalInt.empty();

    static Resident idle(String s, long used) {
        return new Resident(s, used, true, 0);
    }

    @Test
    void overTheLimitACellIsAdmittedOnlyAfterSheddingDownToTheLowWaterMark() {
        assertThat(Shedding.admit(false, 10, OptionalInt.of(10), OptionalInt.of(8), 0)).as("at the limit").isEqualTo(new Admit.Yes());
        assertThat(Shedding.admit(false, 11, OptionalInt.of(10), OptionalInt.of(8), 0))
                .isEqualTo(new Admit.AfterShedding(3, "at CELLD_MAX_RESIDENT_CELLS=10 with no idle cell to shed"));
        assertThat(Shedding.admit(false, 11, OptionalInt.of(10), OptionalInt.empty(), 0))
                .as("no low-water mark: down to the limit").isEqualTo(new Admit.AfterShedding(1, "at CELLD_MAX_RESIDENT_CELLS=10 with no idle cell to shed"));
        assertThat(Shedding.admit(false, 5_000, NO_LIMIT, NO_LIMIT, 0)).as("unlimited").isEqualTo(new Admit.Yes());
    }

    @Test
    void memoryPressureRefusesEveryNewCell() {
        assertThat(Shedding.admit(true, 0, NO_LIMIT, NO_LIMIT, 512))
                .isEqualTo(new Admit.No("memory pressure: resident memory over CELLD_MAX_RSS_MB=512"));
        assertThat(Shedding.full(true, 0, NO_LIMIT)).isTrue();
    }

    @Test
    void aNodeIsFullAtItsLimit() {
        assertThat(Shedding.full(false, 9, OptionalInt.of(10))).isFalse();
        assertThat(Shedding.full(false, 10, OptionalInt.of(10))).isTrue();
        assertThat(Shedding.full(false, 1_000_000, NO_LIMIT)).isFalse();
    }

    @Test
    void pressureShedsATenthPerSweepAndAtLeastOne() {
        assertThat(Shedding.pressureShedCount(100)).isEqualTo(10);
        assertThat(Shedding.pressureShedCount(5)).isEqualTo(1);
        assertThat(Shedding.pressureShedCount(0)).isEqualTo(1);
    }

    @Test
    void victimsAreIdleCellsLeastRecentlyUsedFirst() {
        List<Resident> cells = List.of(idle("c", 30), idle("a", 10), new Resident("busy", 1, false, 0),
                new Resident("sockets", 2, true, 1), idle("b", 10), idle("d", 40));
        assertThat(Shedding.victims(cells, 3)).containsExactly("a", "b", "c");
        assertThat(Shedding.victims(cells, 10)).as("never a busy cell or one with sockets").containsExactly("a", "b", "c", "d");
        assertThat(Shedding.victims(cells, 0)).isEmpty();
    }

    @Test
    void idleCellsAreReleasedOrHibernatedPastTheIdleTime() {
        assertThat(Shedding.idleAction(idle("a", 0), 60_001, 60_000, false)).isEqualTo(IdleAction.RELEASE);
        assertThat(Shedding.idleAction(idle("a", 0), 60_000, 60_000, false)).as("not past it yet").isEqualTo(IdleAction.KEEP);
        assertThat(Shedding.idleAction(new Resident("a", 0, false, 0), 600_000, 60_000, false)).as("busy").isEqualTo(IdleAction.KEEP);
        Resident withSockets = new Resident("a", 0, true, 2);
        assertThat(Shedding.idleAction(withSockets, 60_001, 60_000, false)).isEqualTo(IdleAction.HIBERNATE);
        assertThat(Shedding.idleAction(withSockets, 60_001, 60_000, true)).as("already hibernated").isEqualTo(IdleAction.KEEP);
    }

    @Property
    void victimsAreAtMostTheCountAllSheddableAndNoneOlderLeftBehind(@ForAll @IntRange(min = 0, max = 30) int n,
                                                                   @ForAll @IntRange(min = 0, max = 40) int count,
                                                                   @ForAll @IntRange(min = 1, max = 1_000) int seed) {
        java.util.Random r = new java.util.Random(seed);
        List<Resident> cells = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            cells.add(new Resident("s" + i, r.nextInt(20), r.nextInt(4) != 0, r.nextInt(5) == 0 ? 1 : 0));
        }
        List<String> v = Shedding.victims(cells, count);
        assertThat(v.size()).isLessThanOrEqualTo(count);
        long newestVictim = Long.MIN_VALUE;
        for (String s : v) {
            Resident c = cells.stream().filter(x -> x.scope().equals(s)).findFirst().orElseThrow();
            assertThat(c.sheddable()).isTrue();
            newestVictim = Math.max(newestVictim, c.lastUsedMs());
        }
        long newest = newestVictim;
        assertThat(cells).filteredOn(c -> c.sheddable() && !v.contains(c.scope()))
                .as("a sheddable cell left behind was used more recently than every victim")
                .allMatch(c -> c.lastUsedMs() >= newest);
        if (v.size() < count) {
            assertThat(v).as("fewer than asked: every sheddable cell was taken")
                    .hasSize((int) cells.stream().filter(Resident::sheddable).count());
        }
    }
}
