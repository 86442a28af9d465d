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
    void everyoneReadsTheFirstKey() throws Exception {
        try (FileBucketStore real = bucket()) {
            PeerAuthRecord first = FleetKey.ensure(real, Ticker.SYSTEM).get(10, TimeUnit.SECONDS);
            assertThat(FleetKey.ensure(real, Ticker.SYSTEM).get(10, TimeUnit.SECONDS)).isEqualTo(first);
        }
    }
}
