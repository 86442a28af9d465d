package dev.cellgate.core.logic;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;

/**
 * Admission, shedding and idle eviction of resident cells (SPEC §9). Pure: {@code cell/Admission},
 * {@code Shedder} and the sweep read the counters and act on the verdicts.
 *
 * <p>Only a quiet cell without open sockets is ever released: a cell with an event in flight (in the
 * host or inside the engine: waitUntil, blockConcurrencyWhile) would fail it, and a cell whose only
 * activity is open hibernatable WebSockets leaves memory by hibernating (it keeps its ownership and
 * sockets), not by a release.
 */
public final class Shedding {
    /** Under memory pressure each sweep sheds this share of the resident cells (at least one). */
    static final int PRESSURE_SHED_DIVISOR = 10;

    private Shedding() {
    }

    /** A resident cell as the shedder sees it. */
    public record Resident(String scope, long lastUsedMs, boolean quiet, int openSockets) {
        /** May be released to make room: nothing running, no socket to drop. */
        public boolean sheddable() {
            return quiet && openSockets == 0;
        }
    }

    /** What an activation may do (SPEC §9: a node under pressure stops acquiring new cells). */
    public sealed interface Admit {
        /** Take the cell. */
        record Yes() implements Admit {
        }

        /** Take the cell once this many idle cells are on their way out ({@link #victims}); refuse when none is. */
        record AfterShedding(int count, String refusal) implements Admit {
        }

        /** Refuse: the caller places the cell on a node with capacity. */
        record No(String reason) implements Admit {
        }
    }

    /**
     * @param pressured   resident memory is over {@code CELLD_MAX_RSS_MB}
     * @param occupied    cells held here, the one being activated included
     * @param maxResident {@code CELLD_MAX_RESIDENT_CELLS}, empty when unlimited
     * @param lowWater    {@code CELLD_RESIDENT_LOW_WATER}: shed down to it when over the limit (default: the limit)
     */
    public static Admit admit(boolean pressured, int occupied, OptionalInt maxResident, OptionalInt lowWater, int maxRssMb) {
        if (pressured) {
            return new Admit.No("memory pressure: resident memory over CELLD_MAX_RSS_MB=" + maxRssMb);
        }
        if (maxResident.isPresent() && occupied > maxResident.getAsInt()) {
            int max = maxResident.getAsInt();
            int excess = occupied - lowWater.orElse(max);
            // a low-water mark at or above what is held needs nothing shed (the mark is checked at start to be <= the limit)
            return excess <= 0 ? new Admit.Yes()
                    : new Admit.AfterShedding(excess, "at CELLD_MAX_RESIDENT_CELLS=" + max + " with no idle cell to shed");
        }
        return new Admit.Yes();
    }

    /** Whether this node should not take new cells (published in its lease load, read by placement). */
    public static boolean full(boolean pressured, int occupied, OptionalInt maxResident) {
        return pressured || maxResident.isPresent() && occupied >= maxResident.getAsInt();
    }

    /** How many cells a sweep under memory pressure sheds: memory is not counted in cells, so a fixed share per sweep until it goes away. */
    public static int pressureShedCount(int resident) {
        return Math.max(1, resident / PRESSURE_SHED_DIVISOR);
    }

    /** The cells to release, in order: sheddable ones, least recently used first (ties by scope), at most {@code count}. */
    public static List<String> victims(Collection<Resident> cells, int count) {
        if (count <= 0) {
            return List.of();
        }
        List<Resident> idle = new ArrayList<>();
        for (Resident r : cells) {
            if (r.sheddable()) {
                idle.add(r);
            }
        }
        idle.sort(Comparator.comparingLong(Resident::lastUsedMs).thenComparing(Resident::scope));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < idle.size() && out.size() < count; i++) {
            out.add(idle.get(i).scope());
        }
        return out;
    }

    /** What the sweep does with one resident cell ({@code CELLD_IDLE_EVICT_MS}). */
    public enum IdleAction {
        KEEP,
        /** Idle with open hibernatable sockets: drop the instance, keep ownership and sockets. */
        HIBERNATE,
        /** Idle and nothing open: release it. */
        RELEASE
    }

    /**
     * @param idleForMs  time since the cell's last event
     * @param hibernated the cell already dropped its instance
     */
    public static IdleAction idleAction(Resident cell, long idleForMs, long idleEvictMs, boolean hibernated) {
        if (!cell.quiet() || idleForMs <= idleEvictMs) {
            return IdleAction.KEEP;
        }
        if (cell.openSockets() > 0) {
            return hibernated ? IdleAction.KEEP : IdleAction.HIBERNATE;
        }
        return IdleAction.RELEASE;
    }
}
