package dev.cellgate.core.logic;

/**
 * Compares this node's wall clock with the bucket's (SPEC §20): at start and on every renewal the
 * store says what its clock read when it took the lease write. The store's time is taken as
 * truncated to whole seconds (an HTTP {@code Date}), so only a disagreement that survives that
 * uncertainty and the round trip counts. Pure: the lease keeper logs what {@link #observe} returns.
 */
public final class ClockCheck {
    /** What an HTTP {@code Date} loses: the store's true time is in [date, date + 1 s). */
    static final long SERVER_RESOLUTION_MS = 1_000;
    /** While the clocks stay apart the warning is repeated this often, not on every renewal. */
    static final long REPEAT_MS = 60_000;

    private final long marginMs;
    private boolean beyond;
    private long lastWarnedMono = Long.MIN_VALUE;

    public ClockCheck(long marginMs) {
        this.marginMs = marginMs;
    }

    /**
     * The least the two clocks can disagree by, given one write sent at {@code sentWallMs} and
     * answered at {@code answeredWallMs} on this node's clock while the store stamped
     * {@code serverMs}: positive when this node's clock is ahead, negative when behind, 0 when
     * the store's time is consistent with ours.
     */
    public static long minOffsetMs(long sentWallMs, long answeredWallMs, long serverMs) {
        long serverLatest = serverMs + SERVER_RESOLUTION_MS;
        if (sentWallMs > serverLatest) {
            return sentWallMs - serverLatest;
        }
        if (answeredWallMs < serverMs) {
            return answeredWallMs - serverMs;
        }
        return 0;
    }

    /** What to log after one comparison. */
    public enum Report {
        /** Nothing (within the margin, or a repeat too soon). */
        NONE,
        /** Beyond the margin: the loud warning. */
        BEYOND_MARGIN,
        /** Back within the margin after a warning. */
        BACK_WITHIN
    }

    public Report observe(long offsetMs, long nowMono) {
        if (Math.abs(offsetMs) > marginMs) {
            boolean repeat = beyond && nowMono - lastWarnedMono < REPEAT_MS;
            beyond = true;
            if (repeat) {
                return Report.NONE;
            }
            lastWarnedMono = nowMono;
            return Report.BEYOND_MARGIN;
        }
        if (beyond) {
            beyond = false;
            return Report.BACK_WITHIN;
        }
        return Report.NONE;
    }

    public long marginMs() {
        return marginMs;
    }
}
