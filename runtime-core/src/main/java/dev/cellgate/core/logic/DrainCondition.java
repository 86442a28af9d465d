package dev.cellgate.core.logic;

/**
 * When a shutting-down node's drain is done (SPEC §10). Handoff waits for both counters because a
 * release leaves {@code occupied} before its ownership write lands: exiting on {@code occupied == 0}
 * alone would cut that write off and leave peers waiting for the lease to expire.
 */
public final class DrainCondition {
    private DrainCondition() {
    }

    public enum Mode {
        /** Release every cell so peers take over at once. */
        HANDOFF,
        /** Keep ownership and local data for a same-node restart; only finish state changes in progress. */
        PRESERVE
    }

    /** A snapshot of the node's core state, as the drain loop polls it. */
    public record Counters(int occupied, int releasing, int activating, int evicting) {
        public Counters {
            if (occupied < 0 || releasing < 0 || activating < 0 || evicting < 0) {
                throw new IllegalArgumentException("drain counters cannot be negative: " + occupied + "/" + releasing
                        + "/" + activating + "/" + evicting);
            }
        }
    }

    /** Handoff: no cell occupied and no release in flight. */
    public static boolean handoffDone(int occupied, int releasing) {
        return drained(Mode.HANDOFF, new Counters(occupied, releasing, 0, 0));
    }

    /** Preserve: no activation and no eviction in flight (resident cells stay as they are). */
    public static boolean preserveDone(int activating, int evicting) {
        return drained(Mode.PRESERVE, new Counters(0, 0, activating, evicting));
    }

    public static boolean drained(Mode mode, Counters c) {
        return switch (mode) {
            case HANDOFF -> c.occupied() == 0 && c.releasing() == 0;
            case PRESERVE -> c.activating() == 0 && c.evicting() == 0;
        };
    }
}
