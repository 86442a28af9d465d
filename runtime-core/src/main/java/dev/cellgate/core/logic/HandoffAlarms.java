package dev.cellgate.core.logic;

import java.util.OptionalLong;

/**
 * Alarms on time across a handoff (SPEC §11/§18, issue 29 item 2). A stopping node releases its
 * cells; a released cell's stored alarm has a wake entry, but only a waker scan would find it, and
 * the next scan may be a tick or more away (this node just gave the waker lease up, another node
 * takes it at its own next tick). So for a cell whose alarm falls before the fleet's scans are sure
 * to reach it, the releasing node asks a live peer to make the cell resident at once (the waker's
 * own wake-up, with no entry to judge): activation there arms the alarm on a local timer.
 *
 * <p>Which peer is the router's placement (a live node with capacity, least loaded), as for any call
 * a draining node cannot serve. A poke that fails is logged and left to the waker: it never fails the
 * release, and it may only use the drain's remaining time, less {@link #EXIT_MARGIN_MS}.
 */
public enum HandoffAlarms {
    /** Poke for an alarm due within the window. */
    CORRECT,
    /** A deliberately broken variant: never pokes, so the alarm waits for a scan (a test must catch it). */
    NEVER_POKE;

    /**
     * How many waker ticks until a scan by another node surely looks at this cell's entry: the lease
     * this node held outlives a give-up write that failed by its whole TTL, and the scan after the
     * takeover may start up to a tick late. Alarms later than that are the scans' business.
     */
    static final int WINDOW_TICKS = WakerLease.TTL_TICKS + 1;
    /** Of the drain's time, what a poke leaves for the rest of the stop (the listener's linger, the lease). */
    public static final long EXIT_MARGIN_MS = 500;

    /** What a released cell's alarm needs, and why (the log line says it). */
    public enum Decision {
        POKE("alarm due before the fleet's next scans: a peer arms it now"),
        NOT_RELEASED("the release failed: the cell stays, or moved without this node"),
        NO_ALARM("no stored alarm"),
        LEFT_TO_WAKER("alarm due after the handoff window: a waker scan arms it in time");

        private final String why;

        Decision(String why) {
            this.why = why;
        }

        public String why() {
            return why;
        }
    }

    /**
     * @param released      the ownership release landed (a failed one left the cell where it was)
     * @param storedAlarmMs the cell's durable alarm as it left, empty when none
     * @param nowMs         when the release completed
     * @param tickMs        the waker tick (CELLD_WAKER_TICK_MS)
     */
    public Decision decide(boolean released, OptionalLong storedAlarmMs, long nowMs, long tickMs) {
        if (tickMs <= 0) {
            throw new IllegalArgumentException("the waker tick must be positive, got " + tickMs + " ms");
        }
        if (!released) {
            return Decision.NOT_RELEASED;
        }
        if (storedAlarmMs.isEmpty()) {
            return Decision.NO_ALARM;
        }
        if (this == NEVER_POKE) {
            return Decision.LEFT_TO_WAKER;
        }
        long window = windowMs(tickMs);
        boolean soon = storedAlarmMs.getAsLong() <= (nowMs > Long.MAX_VALUE - window ? Long.MAX_VALUE : nowMs + window);
        return soon ? Decision.POKE : Decision.LEFT_TO_WAKER;
    }

    /** How far ahead of a release an alarm is handed to a peer. */
    public static long windowMs(long tickMs) {
        return Math.multiplyExact(tickMs, WINDOW_TICKS);
    }

    /**
     * How long a poke may take: what is left of the drain ({@code deadlineMs} after its start, now
     * {@code elapsedMs} in) less {@link #EXIT_MARGIN_MS}; empty when nothing is left, and the poke is
     * not sent (the waker arms the alarm).
     */
    public static OptionalLong pokeBudgetMs(long elapsedMs, long deadlineMs) {
        long left = deadlineMs - elapsedMs - EXIT_MARGIN_MS;
        return left > 0 ? OptionalLong.of(left) : OptionalLong.empty();
    }
}
