package dev.cellgate.core.logic;

/**
 * How far ahead a wake scan looks (SPEC §18: alarms on time). A scan wakes every entry whose minute
 * starts before the horizon, so a cell whose alarm falls before the next scan is already resident,
 * with its alarm armed on a local timer, when the alarm comes due. Without the look-ahead an alarm
 * in a minute that begins just after a scan waited a whole tick (30 s late at a 30 s tick).
 *
 * <p>The horizon is {@link #TICKS_AHEAD_NUM}/{@link #TICKS_AHEAD_DEN} of a tick: one tick reaches the
 * next scan, the extra half covers a scan that starts late (a slow bucket, a busy machine). Looking
 * further would only keep more cells resident early.
 */
public final class WakeHorizon {
    static final int TICKS_AHEAD_NUM = 3;
    static final int TICKS_AHEAD_DEN = 2;

    private WakeHorizon() {
    }

    /** The instant up to which a scan starting at {@code nowMs} wakes entries. */
    public static long horizonMs(long nowMs, long tickMs) {
        if (tickMs <= 0) {
            throw new IllegalArgumentException("the waker tick must be positive, got " + tickMs + " ms");
        }
        long ahead = tickMs / TICKS_AHEAD_DEN * TICKS_AHEAD_NUM + tickMs % TICKS_AHEAD_DEN * TICKS_AHEAD_NUM / TICKS_AHEAD_DEN;
        return nowMs > Long.MAX_VALUE - ahead ? Long.MAX_VALUE : nowMs + ahead;
    }

    /** Whether a scan starting at {@code nowMs} wakes the entry of the minute starting at {@code entryMinuteMs}. */
    public static boolean wakesNow(long entryMinuteMs, long nowMs, long tickMs) {
        return entryMinuteMs <= horizonMs(nowMs, tickMs);
    }
}
