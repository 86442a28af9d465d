package dev.cellgate.replicator.wal.restore;

/**
 * What happens to lineage data that no readable pin accounts for. Production always uses
 * {@link #REFUSE}; the other values are the deliberately broken variants the tests prove are
 * caught, and nothing outside the tests may select them.
 */
public enum PinRule {
    /**
     * A restore refuses data above the newest pin (its pin is gone, so which lineage it belongs to
     * cannot be known), and the garbage collection refuses to delete data it could not place.
     */
    REFUSE,
    /** Broken variant (tests only): a restore ignores data above the newest pin, as before issue 30. The GC guard holds. */
    BROKEN_RESTORE_IGNORES_UNPINNED_DATA,
    /** Broken variant (tests only): restore and GC both ignore data without a pin: the data loss issue 30 reproduced. */
    BROKEN_EVERYWHERE;

    boolean restoreRefuses() {
        return this == REFUSE;
    }

    boolean gcRefuses() {
        return this != BROKEN_EVERYWHERE;
    }
}
