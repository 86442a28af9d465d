package dev.cellgate.replicator.wal.restore;

import dev.cellgate.core.logic.PitrHistory;
import java.util.function.LongSupplier;

/**
 * How long history stays restorable ({@code CELLD_PITR_DAYS}, in ms; 0: off) and the clock that
 * places the window. Off, the collector keeps only the current lineage, as before point-in-time
 * recovery existed.
 */
public record Retention(long retentionMs, LongSupplier clock) {
    public static final Retention OFF = new Retention(0, System::currentTimeMillis);

    public boolean on() {
        return retentionMs > 0;
    }

    public long nowMs() {
        return clock.getAsLong();
    }

    /** The oldest time a bookmark may name now ({@code Long.MAX_VALUE} when off). */
    public long windowStartMs() {
        return PitrHistory.windowStartMs(clock.getAsLong(), retentionMs);
    }
}
