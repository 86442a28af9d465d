package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.PeerAuthRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.store.file.FileBucketStore;
import dev.cellgate.core.time.Ticker;
import java.nio.file.Path;
import dev.cellgate.core.spi.bucket.StoredObject;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fleet key is created once, and a create whose outcome is unknown is not a dead end. */
class FleetKeyTest {
    @TempDir
    Path dir;

    /** Creates answer "ambiguous" without writing, {@code lost} times, then pass through. */
    static final class LostCreates extends ForwardingBucketStore {
        final AtomicInteger left;

        LostCreates(BucketStore inner, int lost) {
            super(inner);
            this.left = new AtomicInteger(lost);
        }

        @Override
        public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
            if (left.getAndDecrement() > 0) {
                return CompletableFuture.completedFuture(new WriteOutcome.Ambiguous("injected: timeout before the write", null));
            }
            return inner.putIfAbsent(key, bytes);
        }
    }

    /**
     * Another node's key exists, but a read right after a rejected create misses it for a while
     * ({@code hiddenMs}), as S3Proxy + Azurite did with three nodes starting at once.
     */
    static final class BrieflyInvisibleAfterRejection extends ForwardingBucketStore {
        final long hiddenMs;
        volatile long hiddenUntilNanos;

        BrieflyInvisibleAfterRejection(BucketStore inner, long hiddenMs) {
            super(inner);
            this.hiddenMs = hiddenMs;
        }

        @Override
        public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
            return inner.putIfAbsent(key, bytes).thenApply(o -> {
                if (key.equals(Keys.PEER_AUTH) && o instanceof WriteOutcome.Rejected) {
                    hiddenUntilNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(hiddenMs);
                }
                return o;
            });
        }

        @Override
        public CompletableFuture<Optional<StoredObject>> get(String key) {
            if (key.equals(Keys.PEER_AUTH) && System.nanoTime() < hiddenUntilNanos) {
                return CompletableFuture.completedFuture(Optional.empty());
            }
            return inner.get(key);
        }
    }

    FileBucketStore bucket() {
        return new FileBucketStore("file://" + dir.resolve("b"), dir.resolve("b"), false);
    }

    @Test
    void anAmbiguousCreateThatDidNotLandIsTriedAgain() throws Exception {
        try (FileBucketStore real = bucket()) {
            PeerAuthRecord key = FleetKey.ensure(new LostCreates(real, 2), Ticker.SYSTEM).get(10, TimeUnit.SECONDS);
            assertThat(PeerAuthRecord.decode(real.get(Keys.PEER_AUTH).get().orElseThrow().bytes())).isEqualTo(key);
        }
    }

    @Test
    void aBucketThatNeverKeepsTheKeyFailsClearly() {
        try (FileBucketStore real = bucket()) {
            assertThatThrownBy(() -> FleetKey.ensure(new LostCreates(real, 1_000), Ticker.SYSTEM).get(10, TimeUnit.SECONDS))
                    .hasMessageContaining("still missing after " + FleetKey.ATTEMPTS + " create attempts");
        }
    }

    @Test
    void aWinnersKeyThatReadsAsMissingForAWhileAfterTheRejectedCreateIsReadOnceVisible() throws Exception {
        try (FileBucketStore real = bucket()) {
            PeerAuthRecord winner = FleetKey.ensure(real, Ticker.SYSTEM).get(10, TimeUnit.SECONDS);
            BucketStore lagging = new BrieflyInvisibleAfterRejection(real, 500);
            // the starting node saw no key, so it creates one: rejected, and the key stays invisible for 500 ms
            ((BrieflyInvisibleAfterRejection) lagging).hiddenUntilNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            assertThat(FleetKey.ensure(lagging, Ticker.SYSTEM).get(10, TimeUnit.SECONDS)).isEqualTo(winner);
        }
    }

    @Test
    void everyoneReadsTheFirstKey() throws Exception {
        try (FileBucketStore real = bucket()) {
            PeerAuthRecord first = FleetKey.ensure(real, Ticker.SYSTEM).get(10, TimeUnit.SECONDS);
            assertThat(FleetKey.ensure(real, Ticker.SYSTEM).get(10, TimeUnit.SECONDS)).isEqualTo(first);
        }
    }
}
