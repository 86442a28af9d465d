package dev.cellgate.core.logic;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Which idle cells to evict under pressure (SPEC §9): least recently used first, down to the
 * low-water mark, never a cell with work in flight or open sockets (evicting those would fail a
 * request or drop a hibernatable socket's owner mid-event).
 */
public final class Shedding {
    /** Under memory pressure alone, each round sheds to this fraction of the resident cells. */
    static final int PRESSURE_KEEP_PERCENT = 80;

    private Shedding() {
    }

    /** A resident cell as the shedder sees it. */
    public record Resident(String scope, long lastUsedMs, int inFlight, int openSockets) {
        public boolean idle() {
            return inFlight == 0 && openSockets == 0;
        }
    }

    /**
     * How many cells may stay resident after this round.
     *
     * @param maxResident {@code CELLD_MAX_RESIDENT_CELLS}, or -1 for unlimited
     * @param lowWater    {@code CELLD_RESIDENT_LOW_WATER} (0..max), ignored when unlimited
     * @param memoryPressured the RSS threshold is crossed
     * @return {@code resident} when nothing needs shedding
     */
    public static int target(int resident, int maxResident, int lowWater, boolean memoryPressured) {
        if (resident < 0) {
            throw new IllegalArgumentException("resident cannot be negative: " + resident);
        }
        if (maxResident >= 0 && (lowWater < 0 || lowWater > maxResident)) {
            throw new IllegalArgumentException("low-water mark " + lowWater + " must be within 0.." + maxResident);
        }
        int target = resident;
        if (maxResident >= 0 && resident > maxResident) {
            target = lowWater;
        }
        if (memoryPressured) {
            // Memory is not counted in cells: shed a fixed share per round until the pressure goes away.
            target = Math.min(target, (int) ((long) resident * PRESSURE_KEEP_PERCENT / 100));
        }
        return target;
    }

    /**
     * The cells to evict, in eviction order: idle cells by ascending last use (ties by scope, for
     * determinism) until at most {@code target} would remain. Returns fewer when too few are idle.
     */
    public static List<String> victims(Collection<Resident> cells, int target) {
        int excess = cells.size() - Math.max(0, target);
        if (excess <= 0) {
            return List.of();
        }
        List<Resident> idle = new ArrayList<>();
        for (Resident r : cells) {
            if (r.idle()) {
                idle.add(r);
            }
        }
        idle.sort(Comparator.comparingLong(Resident::lastUsedMs).thenComparing(Resident::scope));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < idle.size() && out.size() < excess; i++) {
            out.add(idle.get(i).scope());
        }
        return out;
    }
}
