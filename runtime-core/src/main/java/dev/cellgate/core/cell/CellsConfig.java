package dev.cellgate.core.cell;

import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * Settings of the cell host.
 *
 * @param watchDir             where cell databases live ({@code CELLD_WATCH})
 * @param outputGate           hold results until writes are durable ({@code CELLD_OUTPUT_GATE})
 * @param idleEvictMs          evict a cell idle this long ({@code CELLD_IDLE_EVICT_MS})
 * @param maxResident          hard limit of resident cells ({@code CELLD_MAX_RESIDENT_CELLS})
 * @param lowWater             shed down to this when over the limit ({@code CELLD_RESIDENT_LOW_WATER})
 * @param maxRssMb             memory threshold for shedding, 0 disables ({@code CELLD_MAX_RSS_MB})
 * @param activations          concurrent cold activations ({@code CELLD_ACTIVATIONS})
 * @param activationDeadlineMs bound on one activation ({@code CELLD_ACTIVATION_DEADLINE_MS})
 */
public record CellsConfig(Path watchDir, boolean outputGate, long idleEvictMs, OptionalInt maxResident, OptionalInt lowWater,
                          int maxRssMb, int activations, long activationDeadlineMs) {
    public static final long DEFAULT_ACTIVATION_DEADLINE_MS = 30_000;

    public CellsConfig {
        if (activationDeadlineMs < 1) {
            throw new IllegalArgumentException("activation deadline must be positive, got " + activationDeadlineMs);
        }
    }

    /** With the default activation deadline. */
    public CellsConfig(Path watchDir, boolean outputGate, long idleEvictMs, OptionalInt maxResident, OptionalInt lowWater,
                       int maxRssMb, int activations) {
        this(watchDir, outputGate, idleEvictMs, maxResident, lowWater, maxRssMb, activations, DEFAULT_ACTIVATION_DEADLINE_MS);
    }
}
