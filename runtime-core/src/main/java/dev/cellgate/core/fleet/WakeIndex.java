package dev.cellgate.core.fleet;

import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.WakeKeys;
import dev.cellgate.core.spi.bucket.BucketException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The alarm wake index {@code wake/<minute>/<scope>} (SPEC §4, §11): lets the waker find cells with
 * a due alarm that no node holds. Invariant the host keeps with it: a cell's durable alarm always has
 * its entry, so the host awaits {@link #moved} BEFORE the alarm change becomes durable, finishes the
 * {@link Move} after it is, and calls {@link #consumed} only AFTER the alarm's consumption is durable.
 * The host runs one alarm change of a cell at a time, awaiting each index call (two writes to one key
 * in flight could land in either order). An entry without an alarm costs a spurious wake, so the
 * woken cell's host deletes it ({@link #drop}, after the cell's last commit and before its next index
 * write: see {@code Cell.judgeWakeEntry}); an alarm without an entry could sleep forever in an
 * inactive cell.
 */
public final class WakeIndex {
    private static final Logger LOG = LoggerFactory.getLogger(WakeIndex.class);
    private final BucketStore store;

    public WakeIndex(BucketStore store) {
        this.store = store;
    }

    /**
     * Step one of an alarm change (set, change or delete), taken BEFORE the change is durable: writes
     * the next alarm's entry. Completes with the {@link Move} once that entry is durable; fails when it
     * may not be, and then the caller must not make the change durable. The previous entry stays for
     * now: until the change lands, the previous alarm is still the durable one.
     */
    public CompletableFuture<Move> moved(String scope, OptionalLong previousMs, OptionalLong nextMs) {
        Move move = new Move(scope, previousMs, nextMs);
        if (nextMs.isEmpty()) {
            return CompletableFuture.completedFuture(move);
        }
        return store.put(WakeKeys.key(nextMs.getAsLong(), scope), new byte[0]).thenCompose(o -> o instanceof WriteOutcome.Written
                ? CompletableFuture.completedFuture(move)
                : CompletableFuture.failedFuture(new BucketException("wake entry for " + scope + " not written: " + o)));
    }

    /** An alarm change whose new entry is durable; {@link #durable} finishes it. */
    public final class Move {
        private final String scope;
        private final OptionalLong previousMs;
        private final OptionalLong nextMs;

        private Move(String scope, OptionalLong previousMs, OptionalLong nextMs) {
            this.scope = scope;
            this.previousMs = previousMs;
            this.nextMs = nextMs;
        }

        /**
         * Step two, once the change is durable: removes the previous entry unless the next alarm shares
         * its minute (and so its key). Best effort: a failure leaves a stale entry, which costs a
         * spurious wake. A change that never became durable is simply not finished.
         */
        public CompletableFuture<Void> durable() {
            if (previousMs.isEmpty() || (nextMs.isPresent() && WakeKeys.sameMinute(previousMs.getAsLong(), nextMs.getAsLong()))) {
                return CompletableFuture.completedFuture(null);
            }
            return dropQuietly(scope, previousMs.getAsLong());
        }
    }

    /** The alarm at {@code alarmMs} ran and no alarm is set any more. */
    public CompletableFuture<Void> consumed(String scope, long alarmMs) {
        return consumed(scope, alarmMs, OptionalLong.empty());
    }

    /**
     * The alarm at {@code alarmMs} ran and its consumption is durable. {@code currentAlarmMs} is the
     * alarm set now (a handler often re-arms itself): when it falls in the same minute, the entry is
     * also its entry and stays.
     */
    public CompletableFuture<Void> consumed(String scope, long alarmMs, OptionalLong currentAlarmMs) {
        if (currentAlarmMs.isPresent() && WakeKeys.sameMinute(alarmMs, currentAlarmMs.getAsLong())) {
            return CompletableFuture.completedFuture(null);
        }
        return store.delete(WakeKeys.key(alarmMs, scope));
    }

    /** Due entries in time order, at most {@code limit}; the listing stops at the first future minute. */
    public CompletableFuture<List<WakeKeys.WakeEntry>> due(long nowMs, int limit) {
        return due(nowMs, limit, key -> Standing.FRESH).thenApply(Due::entries);
    }

    /** How the waker stands with an entry, for {@link #due(long, int, Function)}. */
    public enum Standing {
        /** Not tried, or last tried with success. */
        FRESH,
        /** Failed before, its rest is over: tried again with the capacity fresh entries leave. */
        RETRY,
        /** Failed before and still resting: skipped. */
        RESTING
    }

    /**
     * One scan of the due part of the index.
     *
     * @param entries  the entries to wake: fresh ones in time order, then retries in time order; at most the limit
     * @param resting  due entries skipped because they rest
     * @param complete true when the listing reached the first future minute (or the end) rather than the limit
     */
    public record Due(List<WakeKeys.WakeEntry> entries, List<String> resting, boolean complete) {
    }

    /**
     * Due entries, at most {@code limit}: fresh entries first (in time order), then entries retried
     * after a failure with the capacity left, and none that rest. Entries that keep failing therefore
     * never fill a pass and starve the ones behind them. The listing stops at the first future minute,
     * or once {@code limit} fresh entries are found.
     */
    public CompletableFuture<Due> due(long nowMs, int limit, Function<String, Standing> standing) {
        List<WakeKeys.WakeEntry> fresh = new ArrayList<>();
        List<WakeKeys.WakeEntry> retries = new ArrayList<>();
        List<String> resting = new ArrayList<>();
        boolean[] full = {false};
        return Listings.until(store, Keys.WAKE, key -> {
            var e = WakeKeys.parse(key);
            if (e.isEmpty()) {
                return key.compareTo(Keys.WAKER) < 0; // a stray key: skip it; waker.json sorts after every entry
            }
            if (!WakeKeys.isDue(e.get(), nowMs)) {
                return false;
            }
            switch (standing.apply(key)) {
                case RESTING -> resting.add(key);
                case RETRY -> {
                    if (retries.size() < limit) {
                        retries.add(e.get());
                    }
                }
                case FRESH -> {
                    if (fresh.size() >= limit) {
                        full[0] = true;
                        return false;
                    }
                    fresh.add(e.get());
                }
            }
            return true;
        }).thenApply(x -> {
            List<WakeKeys.WakeEntry> out = new ArrayList<>(fresh);
            out.addAll(retries.subList(0, Math.min(retries.size(), limit - fresh.size())));
            return new Due(out, resting, !full[0]);
        });
    }

    /**
     * Deletes one entry (a stale one: the cell's alarm is elsewhere or gone, or its class is). The
     * caller orders it with the cell's own index writes; a failure is reported, not swallowed.
     */
    public CompletableFuture<Void> drop(String scope, long minuteMs) {
        return store.delete(WakeKeys.key(minuteMs, scope));
    }

    private CompletableFuture<Void> dropQuietly(String scope, long alarmMs) {
        return store.delete(WakeKeys.key(alarmMs, scope)).handle((x, e) -> {
            if (e != null) {
                LOG.atWarn().setMessage("wake_index.stale_entry").addKeyValue("scope", scope).addKeyValue("alarm_ms", alarmMs)
                        .addKeyValue("error", Errors.rootMessage(e)).log();
            }
            return null;
        });
    }
}
