package dev.cellgate.core.cell;

/**
 * Whether this node may take one more cell. At the resident limit it still admits when an idle
 * cell can be shed (the sweeper sheds down to the low-water mark); with no idle cell, or under
 * memory pressure, it refuses so the cell is placed on a node with capacity.
 */
final class Admission {
    private Admission() {
    }

    static void check(Cells cells) {
        CellsConfig c = cells.config();
        if (Pressure.pressured(c.maxRssMb())) {
            throw new NodeFullException("memory pressure: resident memory over CELLD_MAX_RSS_MB=" + c.maxRssMb());
        }
        if (c.maxResident().isPresent() && cells.occupied() > c.maxResident().getAsInt()) {
            boolean shedding = Shedder.shedIdle(cells, cells.occupied() - c.lowWater().orElse(c.maxResident().getAsInt()));
            if (!shedding) {
                throw new NodeFullException("at CELLD_MAX_RESIDENT_CELLS=" + c.maxResident().getAsInt()
                        + " with no idle cell to shed");
            }
        }
    }

    /** True when this node should not take new cells (published in its lease load). */
    static boolean full(Cells cells) {
        CellsConfig c = cells.config();
        return Pressure.pressured(c.maxRssMb())
                || c.maxResident().isPresent() && cells.occupied() >= c.maxResident().getAsInt();
    }
}
