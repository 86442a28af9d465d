package dev.cellgate.core.logic;

import java.util.OptionalLong;

/**
 * What becomes of one due wake entry {@code wake/<minute>/<scope>} (SPEC §11, §20). Two parties
 * decide with it:
 * <ul>
 *   <li>the cell's host, once the cell is resident and its last commit durable, from the cell's
 *       stored alarm ({@link #forStoredAlarm}): the entry stays only while that alarm falls in the
 *       entry's minute; an alarm elsewhere has its own entry (written before it became durable), and
 *       no alarm needs none. The host deletes a stale entry itself, in order with the cell's own
 *       index writes, so a later alarm in the same minute re-creates the key after the delete;</li>
 *   <li>the waker, from what the host answered ({@link #afterWake}): an entry the host kept or
 *       dropped needs nothing more; an entry whose class the deployment no longer has is deleted once
 *       that was seen on {@link #NO_CLASS_SIGHTINGS} passes (a node a deployment behind must not
 *       delete the entry of a class just added); a failure or an answer it cannot read (an older
 *       peer) rests the entry for doubling ticks ({@link Backoff#ticks}) capped at {@link #MAX_REST_TICKS} (1, then 2), and the scan
 *       pages past resting entries, so entries that keep failing never starve the ones behind them.</li>
 * </ul>
 * No I/O, no clock: the caller passes the time.
 */
public final class WakeEntryVerdict {
    /** Passes on which the class must be missing before its entry is deleted. */
    public static final int NO_CLASS_SIGHTINGS = 2;
    /**
     * The longest rest of an entry whose wake failed, in ticks. An alarm is late by its rest once the
     * cause of the failures is gone (an owner that restarted, a bucket that answers again), so the
     * rest stays short: one tick, then every other pass. Resting entries are paged past, so a short
     * rest does not let failing entries starve fresh ones.
     */
    public static final long MAX_REST_TICKS = 2;
    /** The rest counted in ticks (a "tick" of 1): the caller's tick length turns it into time. */
    private static final Backoff REST = Backoff.ticks(1, MAX_REST_TICKS);

    /** The protocol as built. */
    public static final WakeEntryVerdict CORRECT = new WakeEntryVerdict(false, true, true);
    /**
     * Deliberately broken: no entry is ever deleted (the waker before issue 30). {@code WakerTest}
     * proves that its stale-entry check catches it.
     */
    public static final WakeEntryVerdict NEVER_DELETES = new WakeEntryVerdict(true, true, true);
    /**
     * Deliberately broken: the host deletes a stale entry at once, not after the cell's earlier
     * index writes and its last commit ({@code CellWakeTest} proves that its race check catches it).
     */
    public static final WakeEntryVerdict DROPS_OUT_OF_ORDER = new WakeEntryVerdict(false, false, true);
    /**
     * Deliberately broken: the host deletes a stale-looking entry without first confirming that its
     * copy of the cell is still the owner's, so a copy superseded by a takeover deletes the new
     * owner's entry ({@code CellWakeTest} proves that its check catches it).
     */
    public static final WakeEntryVerdict SKIPS_OWNERSHIP_CHECK = new WakeEntryVerdict(false, true, false);

    private final boolean neverDeletes;
    private final boolean dropsInOrder;
    private final boolean confirmsOwnership;

    private WakeEntryVerdict(boolean neverDeletes, boolean dropsInOrder, boolean confirmsOwnership) {
        this.neverDeletes = neverDeletes;
        this.dropsInOrder = dropsInOrder;
        this.confirmsOwnership = confirmsOwnership;
    }

    /** Whether the host confirms its copy is still the owner's before deleting an entry (always, but in a broken variant). */
    public boolean confirmsOwnership() {
        return confirmsOwnership;
    }

    /** Whether the host orders a deletion after the cell's last commit and pending index writes (always, but in a broken variant). */
    public boolean dropsInOrder() {
        return dropsInOrder;
    }

    public enum Action {
        /** The entry is the cell's alarm's (or the host already dropped it): leave it to the host. */
        KEEP,
        /** The entry is stale: delete it. */
        DELETE,
        /** Nothing can be decided now: look again once the entry's rest is over. */
        RETRY_LATER
    }

    /** What the cell's host answered the waker about one entry. */
    public enum Reply {
        /** The cell's durable alarm falls in the entry's minute: it is armed, the entry stays. */
        KEPT,
        /** The entry was stale and the host deleted it. */
        DROPPED,
        /** The deployment the host runs has no class of that name. */
        NO_CLASS,
        /** An answer that says neither (an older peer's empty answer). */
        UNKNOWN
    }

    /**
     * What the waker remembers of an entry between passes, in memory only (a restart starts over).
     *
     * @param failures         consecutive wakes that failed or answered {@link Reply#UNKNOWN}
     * @param noClassSightings consecutive passes whose host had no class for the entry
     * @param restUntilMs      the scan skips the entry before this time
     */
    public record Memory(int failures, int noClassSightings, long restUntilMs) {
        public static final Memory NONE = new Memory(0, 0, Long.MIN_VALUE);

        public boolean resting(long nowMs) {
            return nowMs < restUntilMs;
        }
    }

    /** The waker's verdict on an entry, with what to remember of it ({@link Memory#NONE}: nothing). */
    public record Verdict(Action action, Memory memory, String why) {
    }

    /**
     * The host's decision, from the cell's stored alarm once its last commit is durable.
     *
     * @param entryMinuteMs the start of the entry's minute
     * @param storedAlarmMs the cell's alarm, empty when none is set
     * @return {@link Action#KEEP} or {@link Action#DELETE}
     */
    public Action forStoredAlarm(long entryMinuteMs, OptionalLong storedAlarmMs) {
        if (neverDeletes) {
            return Action.KEEP;
        }
        return storedAlarmMs.isPresent() && WakeKeys.sameMinute(entryMinuteMs, storedAlarmMs.getAsLong()) ? Action.KEEP : Action.DELETE;
    }

    /**
     * The waker's decision once the host answered (or failed: {@code reply} null).
     *
     * @param before what was remembered of the entry ({@link Memory#NONE} the first time)
     * @param nowMs  the waker's clock when the pass began
     * @param tickMs the waker tick
     */
    public Verdict afterWake(Reply reply, Memory before, long nowMs, long tickMs) {
        if (reply == Reply.KEPT || reply == Reply.DROPPED) {
            return new Verdict(Action.KEEP, Memory.NONE, reply == Reply.KEPT ? "the cell's alarm is in the entry's minute"
                    : "the host deleted the stale entry");
        }
        if (reply == Reply.NO_CLASS) {
            int seen = before.noClassSightings() + 1;
            if (seen >= NO_CLASS_SIGHTINGS && !neverDeletes) {
                return new Verdict(Action.DELETE, Memory.NONE, "the deployment has no such class (" + seen + " passes)");
            }
            // look again one tick later: by then a deployment switch has reached every node
            return new Verdict(Action.RETRY_LATER, new Memory(0, seen, restUntil(nowMs, 1, tickMs)),
                    "the deployment has no such class; confirming on the next pass");
        }
        int failures = before.failures() + 1;
        long ticks = REST.ceilingMs(failures);
        return new Verdict(Action.RETRY_LATER, new Memory(failures, 0, restUntil(nowMs, ticks, tickMs)),
                (reply == null ? "the wake failed" : "the host's answer says nothing about the entry")
                        + " (" + failures + " in a row); next look in " + ticks + " tick(s)");
    }

    /**
     * The end of a rest of {@code ticks} ticks: the pass {@code ticks} ticks later looks again. Half a
     * tick early, so a pass that starts a little before its nominal time (a scheduler's jitter) is not
     * skipped: a rest of one tick means "the next pass".
     */
    static long restUntil(long nowMs, long ticks, long tickMs) {
        return Math.addExact(nowMs, Math.subtractExact(Math.multiplyExact(ticks, tickMs), tickMs / 2));
    }
}
