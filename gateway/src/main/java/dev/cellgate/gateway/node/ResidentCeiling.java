package dev.cellgate.gateway.node;

import dev.cellgate.core.config.NodeConfig;
import dev.cellgate.core.logic.DescriptorBudget;
import java.lang.management.ManagementFactory;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The node's resident-cell limit, checked against the open-file limit of this process. */
final class ResidentCeiling {
    private static final Logger LOG = LoggerFactory.getLogger(ResidentCeiling.class);

    private ResidentCeiling() {
    }

    static OptionalInt of(NodeConfig config) throws StartupException {
        long limit = openFileLimit();
        return switch (DescriptorBudget.decide(limit, config.maxResidentCells())) {
            case DescriptorBudget.Fits f -> f.maxResident();
            case DescriptorBudget.Capped c -> {
                LOG.atInfo().setMessage("cells.resident_ceiling").addKeyValue("max_resident", c.maxResident())
                        .addKeyValue("open_file_limit", c.openFileLimit()).addKeyValue("per_cell", DescriptorBudget.PER_CELL)
                        .addKeyValue("why", "no CELLD_MAX_RESIDENT_CELLS: the open-file limit sets it (raise ulimit -n for more)").log();
                yield OptionalInt.of(c.maxResident());
            }
            case DescriptorBudget.TooHigh t -> throw new StartupException(ExitCodes.CONFIG, "invalid CELLD_MAX_RESIDENT_CELLS="
                    + t.configured() + ": holding that many cells needs about " + t.needed() + " open files ("
                    + DescriptorBudget.PER_CELL + " per cell + " + DescriptorBudget.RESERVED + "), and this process may open "
                    + t.openFileLimit() + " (ulimit -n); raise the limit or lower the setting");
        };
    }

    /** The process's open-file limit, or -1 where the JVM cannot tell (not a Unix). */
    static long openFileLimit() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            return unix.getMaxFileDescriptorCount();
        }
        return -1;
    }
}
