package dev.cellgate.core.fleet;

import dev.cellgate.core.async.Retrying;
import dev.cellgate.core.logic.Backoff;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.records.PeerAuthRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.time.Scheduler;
import dev.cellgate.core.time.Ticker;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The fleet's peer-authentication key, {@code fleet/peer-auth.json}: created create-only by
 * whichever node comes first; everyone else reads the winner's. N nodes starting together end
 * with one key.
 *
 * <p>A create that is rejected proves that the key exists, yet a read right after it may still miss
 * it (seen on S3Proxy + Azurite with three nodes starting at once: "vanished after a create race").
 * So after an unclear create (rejected, or ambiguous: ours may have landed) the key is read again,
 * waiting {@link #RETRY}'s exponential delays between looks, a bounded number of times.
 */
public final class FleetKey {
    private FleetKey() {
    }

    /**
     * Looks at the bucket (read, create, read back) before giving up; the delays between them grow.
     * No jitter: the wait is what lets a lagging read see the winner's key, so each one is whole.
     */
    static final Backoff RETRY = new Backoff(50, 1_000, 8, Backoff.Jitter.NONE);
    static final int ATTEMPTS = RETRY.maxAttempts();

    public static CompletableFuture<PeerAuthRecord> ensure(BucketStore store, Ticker ticker) {
        AtomicReference<WriteOutcome> last = new AtomicReference<>();
        return Retrying.run(RETRY, () -> once(store, ticker, last), e -> e instanceof NotVisibleYet,
                Scheduler.shared(), Retrying.ANY_THREAD).exceptionallyCompose(e -> CompletableFuture.failedFuture(
                Errors.unwrap(e) instanceof NotVisibleYet
                        ? new IllegalStateException(Keys.PEER_AUTH + " is still missing after " + ATTEMPTS + " create attempts over "
                        + RETRY.longestWaitMs() + " ms (the bucket last answered " + last.get() + ")")
                        : e));
    }

    /** One look: read, else create, else read back; a key still not there is {@link NotVisibleYet}. */
    private static CompletableFuture<PeerAuthRecord> once(BucketStore store, Ticker ticker, AtomicReference<WriteOutcome> last) {
        return store.get(Keys.PEER_AUTH).thenCompose(existing -> {
            if (existing.isPresent()) {
                return CompletableFuture.completedFuture(PeerAuthRecord.decode(existing.get().bytes()));
            }
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            PeerAuthRecord mine = new PeerAuthRecord(1, HexFormat.of().formatHex(key), ticker.nowMs());
            return store.putIfAbsent(Keys.PEER_AUTH, mine.encode()).thenCompose(o -> {
                if (o instanceof WriteOutcome.Written) {
                    return CompletableFuture.completedFuture(mine);
                }
                last.set(o);
                return readBack(store);
            });
        });
    }

    /**
     * Rejected: another node won the race. Ambiguous: ours may have landed. Either way, read; nothing
     * there yet means a winner's object not visible yet, or an ambiguous write that did not land:
     * wait, then look again from the start (a create that did not land is tried again).
     */
    private static CompletableFuture<PeerAuthRecord> readBack(BucketStore store) {
        return store.get(Keys.PEER_AUTH).thenCompose(now -> now.isPresent()
                ? CompletableFuture.completedFuture(PeerAuthRecord.decode(now.get().bytes()))
                : CompletableFuture.failedFuture(new NotVisibleYet()));
    }

    /** The one failure worth another look; bucket errors end {@link #ensure} at once, as before. */
    private static final class NotVisibleYet extends RuntimeException {
        NotVisibleYet() {
            super(Keys.PEER_AUTH + " not visible after an unclear create", null, false, false);
        }
    }
}
