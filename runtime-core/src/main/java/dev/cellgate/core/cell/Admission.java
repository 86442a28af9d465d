package dev.cellgate.core.cell;

import dev.cellgate.core.logic.Shedding;

/**
 * Whether this node may take one more cell ({@link Shedding#admit}). At the resident limit it still
 * admits when an idle cell can be shed (down to the low-water mark); with no idle cell, or under
 * memory pressure, it refuses so the cell is placed on a node with capacity.
 */
final class Admission {
    private Admission() {
    }

    static void check(Cells cells) {
        CellsConfig c = cells.config();
        switch (Shedding.admit(Pressure.pressured(c.maxRssMb()), cells.occupied(), c.maxResident(), c.lowWater(), c.maxRssMb())) {
            case Shedding.Admit.Yes y -> { }
            case Shedding.Admit.No no -> throw new NodeFullException(no.reason());
            case Shedding.Admit.AfterShedding s -> {
                if (!Shedder.shedIdle(cells, s.count())) {
                    throw new NodeFullException(s.refusal());
                }
            }
        }
    }

    /** True when this node should not take new cells (published in its lease load). */
    static boolean full(Cells cells) {
        CellsConfig c = cells.config();
        return Shedding.full(Pressure.pressured(c.maxRssMb()), cells.occupied(), c.maxResident());
    }
}
