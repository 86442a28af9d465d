package dev.cellgate.core.fleet;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.PeerAuthRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.time.Ticker;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;

/**
 * The fleet's peer-authentication key, {@code fleet/peer-auth.json}: created create-only by
 * whichever node comes first; everyone else reads the winner's. N nodes starting together end
 * with one key.
 */
public final class FleetKey {
    private FleetKey() {
    }

    /** How many create-then-read rounds before giving up (each one is a full look at the bucket). */
    static final int ATTEMPTS = 5;

    public static CompletableFuture<PeerAuthRecord> ensure(BucketStore store, Ticker ticker) {
        return ensure(store, ticker, 1);
    }

    private static CompletableFuture<PeerAuthRecord> ensure(BucketStore store, Ticker ticker, int attempt) {
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
                // Rejected: another node won the race. Ambiguous: ours may have landed. Either way, read.
                // Nothing there: an ambiguous write that did not land, or a winner's object not visible
                // yet (seen on S3Proxy + Azurite with three nodes starting at once): look again.
                return store.get(Keys.PEER_AUTH).thenCompose(now -> {
                    if (now.isPresent()) {
                        return CompletableFuture.completedFuture(PeerAuthRecord.decode(now.get().bytes()));
                    }
                    if (attempt >= ATTEMPTS) {
                        return CompletableFuture.failedFuture(new IllegalStateException(Keys.PEER_AUTH
                                + " is still missing after " + ATTEMPTS + " create attempts (the bucket answered " + o + ")"));
                    }
                    return ensure(store, ticker, attempt + 1);
                });
            });
        });
    }
}
