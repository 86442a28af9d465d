package dev.cellgate.core.fleet;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.WakeKeys;
import dev.cellgate.core.spi.bucket.BucketException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The alarm wake index {@code wake/<minute>/<scope>} (SPEC §4, §11): lets the waker find cells with
 * a due alarm that no node holds. Invariant the host keeps with it: a cell's durable alarm always has
 * its entry, so the host awaits {@link #moved} BEFORE the alarm change becomes durable, and calls
 * {@link #consumed} only AFTER the consumption is durable. An entry without an alarm is harmless (a
 * spurious wake); an alarm without an entry could sleep forever in an inactive cell.
 */
public final class WakeIndex {
    private static final Logger LOG = LoggerFactory.getLogger(WakeIndex.class);
    private final BucketStore store;

    public WakeIndex(BucketStore store) {
        this.store = store;
    }

    /**
     * The cell's alarm was set, changed or deleted. Completes when the new entry is durable; fails
     * when it may not be (the caller must then not make the alarm durable). The previous entry is
     * removed afterwards, best effort: if that fails, the cost is a spurious wake.
     */
    public CompletableFuture<Void> moved(String scope, OptionalLong previousMs, OptionalLong nextMs) {
        CompletableFuture<Void> put = nextMs.isPresent()
                ? store.put(WakeKeys.key(nextMs.getAsLong(), scope), new byte[0]).thenCompose(o -> o instanceof WriteOutcome.Written
                        ? CompletableFuture.<Void>completedFuture(null)
                        : CompletableFuture.<Void>failedFuture(new BucketException("wake entry for " + scope + " not written: " + o)))
                : CompletableFuture.completedFuture(null);
        if (previousMs.isEmpty() || (nextMs.isPresent() && WakeKeys.sameMinute(previousMs.getAsLong(), nextMs.getAsLong()))) {
            return put;
        }
        long prev = previousMs.getAsLong();
        return put.thenCompose(x -> dropQuietly(scope, prev));
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
        List<WakeKeys.WakeEntry> out = new ArrayList<>();
        return Listings.until(store, Keys.WAKE, key -> {
            var e = WakeKeys.parse(key);
            if (e.isEmpty()) {
                return key.compareTo(Keys.WAKER) < 0; // a stray key: skip it; waker.json sorts after every entry
            }
            if (!WakeKeys.isDue(e.get(), nowMs) || out.size() >= limit) {
                return false;
            }
            out.add(e.get());
            return true;
        }).thenApply(x -> out);
    }

    private CompletableFuture<Void> dropQuietly(String scope, long alarmMs) {
        return store.delete(WakeKeys.key(alarmMs, scope)).handle((x, e) -> {
            if (e != null) {
                LOG.atWarn().setMessage("wake_index.stale_entry").addKeyValue("scope", scope).addKeyValue("alarm_ms", alarmMs)
                        .addKeyValue("error", OwnershipStore.rootMessage(e)).log();
            }
            return null;
        });
    }
}
