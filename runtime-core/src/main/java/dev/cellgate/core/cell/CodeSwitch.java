package dev.cellgate.core.cell;

import dev.cellgate.core.spi.js.LoadedScript;
import java.util.ArrayDeque;

/**
 * A resident cell's move to a newly deployed script, which happens between events: the
 * instance is replaced only when nothing runs in it. Under steady load such a moment may never
 * come by itself, and the cell would serve old code long after the fleet switched. So while a
 * move is wanted, an event that arrives as others run is held back until they end, for at most
 * {@link #HOLD_MS}; past that, events run on the old code and the move waits for a quiet moment
 * (a long-running event must not stall the cell). Executor only.
 */
final class CodeSwitch {
    /** How long new events may wait for the running ones, per move. */
    static final long HOLD_MS = 1000;

    private LoadedScript wanted;
    private long sinceMs;
    private final ArrayDeque<Runnable> held = new ArrayDeque<>();

    void want(LoadedScript next, long nowMs) {
        if (wanted == null) {
            sinceMs = nowMs;
        }
        wanted = next;
    }

    /** The script to move to, or null. */
    LoadedScript wanted() {
        return wanted;
    }

    /** Whether an event arriving now should wait, given that others are {@code running}. */
    boolean holds(boolean running, long nowMs) {
        return wanted != null && running && nowMs - sinceMs < HOLD_MS;
    }

    /**
     * Holds an event back. True for the first one held: the caller then arms a timer for
     * {@link #holdLeftMs}, since an event running may itself wait for a held one (a Durable
     * Object calling itself) and only the expiry lets that pair go on.
     */
    boolean hold(Runnable start) {
        held.add(start);
        return held.size() == 1;
    }

    /** How long the move has been wanted (for the log of the move). */
    long wantedForMs(long nowMs) {
        return wanted == null ? 0 : nowMs - sinceMs;
    }

    long holdLeftMs(long nowMs) {
        return Math.max(0, sinceMs + HOLD_MS - nowMs);
    }

    /** The move happened, or is moot (the cell left, hibernated, or already runs it). */
    void done() {
        wanted = null;
    }

    /** Starts every held event, in arrival order. */
    void release() {
        Runnable r;
        while ((r = held.poll()) != null) {
            r.run();
        }
    }
}
