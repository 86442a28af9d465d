package dev.cellgate.core.logic;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Point-in-time recovery over a cell's commit history (SPEC §22), decided from a listing alone:
 * every replicated commit group names its epoch, its txid range and the time it became durable.
 * Pure: the caller lists the bucket and passes the clock.
 *
 * <p>A state of the cell is the end of a commit group: the state at time {@code t} is the end of
 * the newest group durable at or before {@code t} (groups are acknowledged only once durable, so
 * nothing later was visible then). Retention keeps restorable every state the cell had inside the
 * window, which includes the one it already had when the window opened.
 */
public final class PitrHistory {
    private static final long DAY_MS = 86_400_000L;

    private PitrHistory() {
    }

    /** One replicated commit group: transactions {@code minTxid..maxTxid} of epoch {@code epoch}, durable at {@code timeMs}. */
    public record Commit(long epoch, long minTxid, long maxTxid, long timeMs) {
        public Commit {
            if (epoch < 1 || minTxid < 1 || maxTxid < minTxid) {
                throw new IllegalArgumentException("commit group e" + epoch + " " + minTxid + ".." + maxTxid + " is not a txid range");
            }
        }
    }

    /** The retention window in ms for {@code CELLD_PITR_DAYS} (0: off). */
    public static long retentionMs(int days) {
        if (days < 0) {
            throw new IllegalArgumentException("CELLD_PITR_DAYS must be 0 (off) or a positive number of days, got " + days);
        }
        return days * DAY_MS;
    }

    /** The oldest time a bookmark may name, or {@code Long.MAX_VALUE} when retention is off (nothing is kept for it). */
    public static long windowStartMs(long nowMs, long retentionMs) {
        return retentionMs <= 0 ? Long.MAX_VALUE : nowMs - retentionMs;
    }

    /**
     * The state at {@code timeMs}: the end of the newest group durable then (ties: the higher
     * epoch, then txid), or the empty database when none was. Refused when {@code timeMs} lies
     * before the window (the history there may be collected) or retention is off.
     */
    public static Bookmark stateAt(Collection<Commit> commits, long timeMs, long windowStartMs, String scope) {
        if (windowStartMs == Long.MAX_VALUE) {
            throw new IllegalArgumentException("point-in-time recovery is off on this fleet (CELLD_PITR_DAYS=0): no history of "
                    + scope + " is kept");
        }
        if (timeMs < windowStartMs) {
            throw new IllegalArgumentException("time " + timeMs + " lies before the retention window of " + scope
                    + " (it starts at " + windowStartMs + ", CELLD_PITR_DAYS)");
        }
        Commit best = null;
        for (Commit c : commits) {
            if (c.timeMs() <= timeMs && (best == null || later(c, best))) {
                best = c;
            }
        }
        return best == null ? Bookmark.empty(timeMs) : new Bookmark(timeMs, best.epoch(), best.maxTxid());
    }

    private static boolean later(Commit a, Commit b) {
        if (a.timeMs() != b.timeMs()) {
            return a.timeMs() > b.timeMs();
        }
        return a.epoch() != b.epoch() ? a.epoch() > b.epoch() : a.maxTxid() > b.maxTxid();
    }

    /**
     * Per epoch, the oldest txid that must stay restorable: the state just before its first group
     * durable inside the window (the state the window opened on, or the epoch's start). Epochs
     * with no group in the window need nothing for retention (the current lineage keeps its own).
     */
    public static Map<Long, Long> floors(Collection<Commit> commits, long windowStartMs) {
        Map<Long, Long> out = new TreeMap<>();
        for (Commit c : commits) {
            if (c.timeMs() >= windowStartMs) {
                out.merge(c.epoch(), c.minTxid() - 1, Math::min);
            }
        }
        return out;
    }

    /** Whether a bookmark of {@code timeMs} is still inside the window. */
    public static Optional<String> outsideWindow(Bookmark b, long windowStartMs) {
        if (windowStartMs == Long.MAX_VALUE) {
            return Optional.of("point-in-time recovery is off on this fleet (CELLD_PITR_DAYS=0)");
        }
        if (b.timeMs() < windowStartMs) {
            return Optional.of("bookmark " + b.encode() + " is older than the retention window (CELLD_PITR_DAYS)");
        }
        return Optional.empty();
    }
}
