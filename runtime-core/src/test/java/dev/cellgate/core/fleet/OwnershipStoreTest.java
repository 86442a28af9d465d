package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.OwnershipRecord;
import dev.cellgate.core.spi.bucket.BucketStoreContract;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnershipStoreTest {
    static final String SCOPE = "Counter:" + "ab".repeat(32);

    @TempDir
    Path dir;
    FileBucketStore bucket;
    AtomicLong now = new AtomicLong(1_000_000);

    @BeforeEach
    void open() {
        bucket = new FileBucketStore("file://" + dir, dir, false);
    }

    OwnershipStore node(String name, String session) {
        return new OwnershipStore(bucket, new Self(name, session), now::get);
    }

    void lease(String node, String session, long expires) throws Exception {
        bucket.put(Keys.lease(node), new LeaseRecord(node, session, "h:1", 1, 0, expires, LeaseRecord.Load.IDLE).encode()).get();
    }

    @Test
    void firstAcquireCreatesEpochOneAndWritesTheMarker() throws Exception {
        Acquisition a = node("n1", "s1").acquire(SCOPE).get();
        assertThat(a).isInstanceOf(Acquisition.Acquired.class);
        assertThat(((Acquisition.Acquired) a).epoch()).isEqualTo(1);
        awaitMarkers("n1", Keys.marker("n1", "s1", SCOPE)); // written beside the acquire, not before it
        String v = ((Acquisition.Acquired) a).version();
        assertThat(node("n1", "s1").confirm(SCOPE, 1, v).get()).isTrue();
        assertThat(node("n1", "s1").confirm(SCOPE, 2, "another-version").get()).isFalse();
    }

    /** The node's markers, once the in-flight marker PUTs have landed (they are not awaited by the acquire). */
    void awaitMarkers(String node, String... expected) throws Exception {
        long until = System.nanoTime() + 5_000_000_000L;
        while (!BucketStoreContract.listAll(bucket, Keys.markersOf(node), 10).equals(java.util.List.of(expected))
                && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertThat(BucketStoreContract.listAll(bucket, Keys.markersOf(node), 10)).containsExactly(expected);
    }

    @Test
    void theAcquireDoesNotWaitForTheMarkerAndAReleaseDeletesItOnlyAfterItsPutLanded() throws Exception {
        CompletableFuture<Void> markerMayLand = new CompletableFuture<>();
        OwnershipStore slowMarkers = new OwnershipStore(new ForwardingBucketStore(bucket) {
            @Override
            public CompletableFuture<dev.cellgate.core.spi.bucket.WriteOutcome> put(String key, byte[] bytes) {
                if (!key.startsWith(Keys.markersOf("n1"))) {
                    return super.put(key, bytes);
                }
                return markerMayLand.thenCompose(x -> super.put(key, bytes));
            }
        }, new Self("n1", "s1"), now::get);
        Acquisition.Acquired a = (Acquisition.Acquired) slowMarkers.acquire(SCOPE).get(5, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(a.epoch()).as("acquired while the marker PUT is still held back").isEqualTo(1);
        CompletableFuture<Boolean> released = slowMarkers.release(SCOPE, a.epoch(), a.version());
        Thread.sleep(100);
        assertThat(released).as("the release waits for the marker PUT it must undo").isNotDone();
        markerMayLand.complete(null);
        assertThat(released.get(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(BucketStoreContract.listAll(bucket, Keys.markersOf("n1"), 10))
                .as("the late marker PUT did not outlive the release").isEmpty();
    }

    @Test
    void liveOwnerIsRespectedAndDeadOwnerTakenOverAtTheNextEpoch() throws Exception {
        Acquisition.Acquired first = (Acquisition.Acquired) node("n1", "s1").acquire(SCOPE).get();
        lease("n1", "s1", now.get() + 10_000);
        assertThat(node("n2", "s2").acquire(SCOPE).get()).isEqualTo(new Acquisition.OwnedElsewhere("n1"));
        now.addAndGet(10_001 + Liveness.DEFAULT_SKEW_MS); // past expiry + the clock-skew margin
        Acquisition taken = node("n2", "s2").acquire(SCOPE).get();
        assertThat(taken).isInstanceOf(Acquisition.Acquired.class);
        assertThat(((Acquisition.Acquired) taken).epoch()).isEqualTo(2);
        // the stale owner can no longer confirm, nor release the new owner's record
        assertThat(node("n1", "s1").confirm(SCOPE, 1, first.version()).get()).isFalse();
        assertThat(node("n1", "s1").release(SCOPE, 1, first.version()).get()).isFalse();
        assertThat(node("n2", "s2").confirm(SCOPE, 2, ((Acquisition.Acquired) taken).version()).get()).isTrue();
    }

    @Test
    void releaseKeepsTheEpochAndTheNextAcquireBumpsIt() throws Exception {
        OwnershipStore n1 = node("n1", "s1"); // one store per node, as in production: it knows its marker PUTs in flight
        Acquisition.Acquired a = (Acquisition.Acquired) n1.acquire(SCOPE).get();
        assertThat(n1.release(SCOPE, a.epoch(), a.version()).get()).isTrue();
        byte[] raw = bucket.get(Keys.ownership(SCOPE)).get().orElseThrow().bytes();
        assertThat(OwnershipRecord.decode(raw)).isEqualTo(OwnershipRecord.released(1));
        assertThat(BucketStoreContract.listAll(bucket, Keys.markersOf("n1"), 10)).isEmpty();
        lease("n1", "s1", now.get() + 10_000);
        Acquisition b = node("n2", "s2").acquire(SCOPE).get();
        assertThat(((Acquisition.Acquired) b).epoch()).isEqualTo(2);
    }

    @Test
    void confirmAsksForTheVersionAloneWhileTheRecordIsTheOneWeWrote() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        OwnershipStore counted = new OwnershipStore(new ForwardingBucketStore(bucket) {
            @Override
            public CompletableFuture<Optional<StoredObject>> get(String key) {
                reads.incrementAndGet();
                return super.get(key);
            }

            @Override
            public CompletableFuture<Optional<String>> version(String key) {
                return inner.version(key);
            }
        }, new Self("n1", "s1"), now::get);
        Acquisition.Acquired a = (Acquisition.Acquired) counted.acquire(SCOPE).get();
        reads.set(0);
        assertThat(counted.confirm(SCOPE, 1, a.version()).get()).isTrue();
        assertThat(reads).as("no full read while the version is ours").hasValue(0);

        // Same content under a new version (rewritten): the version no longer proves it, the content does.
        byte[] same = bucket.get(Keys.ownership(SCOPE)).get().orElseThrow().bytes();
        bucket.put(Keys.ownership(SCOPE), same).get();
        assertThat(counted.confirm(SCOPE, 1, a.version()).get()).isTrue();
        assertThat(reads).hasValue(1);

        // Taken over: neither the version nor the content is ours.
        lease("n1", "s1", now.get() - 1 - Liveness.DEFAULT_SKEW_MS);
        Acquisition.Acquired b = (Acquisition.Acquired) node("n2", "s2").acquire(SCOPE).get();
        assertThat(b.epoch()).isEqualTo(2);
        assertThat(counted.confirm(SCOPE, 1, a.version()).get()).isFalse();
    }

    @Test
    void malformedOwnershipRecordIsNeverTakenAsFree() throws Exception {
        bucket.put(Keys.ownership(SCOPE), "{oops".getBytes(StandardCharsets.UTF_8)).get();
        assertThat(node("n1", "s1").acquire(SCOPE).get()).isInstanceOf(Acquisition.Unavailable.class);
    }
}
