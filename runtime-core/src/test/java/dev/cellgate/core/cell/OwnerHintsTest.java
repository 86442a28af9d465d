package dev.cellgate.core.cell;

import static dev.cellgate.core.cell.CellsLifecycleTest.body;
import static dev.cellgate.core.cell.CellsLifecycleTest.get;
import static dev.cellgate.core.cell.CellsLifecycleTest.id;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.fleet.Self;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.logic.ForwardFailure;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A call for a cell another node owns goes to that node on what this node last read, without
 * reading the bucket again, until the hint is refused, expires, or this node takes the cell.
 */
class OwnerHintsTest extends WithCellHost {
    final AtomicLong clock = new AtomicLong(1_000_000);

    /** Counts the reads a node makes. */
    static final class CountingStore extends ForwardingBucketStore {
        final AtomicInteger gets = new AtomicInteger();

        CountingStore(BucketStore inner) {
            super(inner);
        }

        @Override
        public CompletableFuture<Optional<StoredObject>> get(String key) {
            gets.incrementAndGet();
            return super.get(key);
        }
    }

    /** Answers forwarded fetches with the node's name, or refuses them while {@code refuse} is set. */
    static final class PeerStandIn implements Forwarder {
        final List<String> calls = new ArrayList<>();
        volatile RuntimeException refuse;

        @Override
        public CompletableFuture<HttpRequestData> replayable(HttpRequestData request) {
            return CompletableFuture.completedFuture(request);
        }

        @Override
        public synchronized CompletableFuture<HttpResponseData> fetch(String node, CellIdentity id, HttpRequestData request) {
            calls.add(node);
            RuntimeException r = refuse;
            if (r != null) {
                refuse = null;
                return CompletableFuture.failedFuture(r);
            }
            return CompletableFuture.completedFuture(new HttpResponseData(200, "OK", List.of(),
                    Body.of(("from " + node).getBytes(StandardCharsets.UTF_8))));
        }

        @Override
        public CompletableFuture<byte[]> call(String node, CellIdentity id, String method, byte[] arguments) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException());
        }

        @Override
        public CompletableFuture<dev.cellgate.core.logic.WakeEntryVerdict.Reply> wake(String node, CellIdentity id,
                                                                                 java.util.OptionalLong entryMinuteMs) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException());
        }

        @Override
        public String placementTarget() {
            return null;
        }
    }

    Cells node(String name, BucketStore store) {
        Ticker ticker = clock::get;
        CellsConfig cfg = new CellsConfig(dir.resolve("watch-" + name), true, 3_600_000, OptionalInt.empty(), OptionalInt.empty(), 0, 4);
        Cells c = new Cells(vertx, cfg, new OwnershipStore(store, new Self(name, "s-" + name), ticker), null, () -> script,
                ticker, Executors.newFixedThreadPool(2), () -> true, new WakeIndex(store));
        c.stubs(new CellRouter(c, vertx));
        return c;
    }

    void liveLease(String node, long expiresMs) {
        bucket.put(Keys.lease(node), new LeaseRecord(node, "s-" + node, "h:1", 1, 0, expiresMs, LeaseRecord.Load.IDLE).encode()).join();
    }

    /** n1 owns {@code cell} (its counter at 1); n2 knows nothing yet and forwards through a stand-in. */
    record TwoNodes(Cells n2, CellRouter router, PeerStandIn peers) {
    }

    TwoNodes n1OwnsAndN2Forwards(CellIdentity cell, long n1LeaseMs, BucketStore n2Store) throws Exception {
        liveLease("n1", clock.get() + n1LeaseMs);
        assertThat(body(node("n1", bucket).fetch(cell, get("/")))).isEqualTo("1");
        Cells n2 = node("n2", n2Store);
        CellRouter router = new CellRouter(n2, vertx);
        PeerStandIn peers = new PeerStandIn();
        router.forwarder(peers);
        return new TwoNodes(n2, router, peers);
    }

    @Test
    void aKnownOwnerIsCalledWithoutReadingTheBucketUntilItRefuses() throws Exception {
        CellIdentity cell = id(7);
        CountingStore reads = new CountingStore(bucket);
        TwoNodes t = n1OwnsAndN2Forwards(cell, 60_000, reads);
        CellRouter router = t.router();
        PeerStandIn peers = t.peers();

        assertThat(body(router.fetch(cell, get("/")))).isEqualTo("from n1");
        int afterFirst = reads.gets.get();
        assertThat(afterFirst).as("the first call reads the ownership record and the owner's lease").isGreaterThanOrEqualTo(2);
        for (int i = 0; i < 10; i++) {
            assertThat(body(router.fetch(cell, get("/")))).isEqualTo("from n1");
        }
        assertThat(reads.gets.get()).as("later calls go on the hint").isEqualTo(afterFirst);

        // The owner says it is not the owner any more: the hint goes, the next try reads the bucket again.
        peers.refuse = new ForwardFailedException(ForwardFailure.Kind.NOT_OWNER, "node n1 is not the owner");
        assertThat(body(router.fetch(cell, get("/")))).isEqualTo("from n1");
        assertThat(reads.gets.get()).as("a refusal sends the node back to the bucket").isGreaterThan(afterFirst);

        // A hint is only used for a while.
        int beforeExpiry = reads.gets.get();
        clock.addAndGet(OwnerHints.HINT_MS);
        assertThat(body(router.fetch(cell, get("/")))).isEqualTo("from n1");
        assertThat(reads.gets.get()).as("an expired hint is read again").isGreaterThan(beforeExpiry);
        assertThat(peers.calls).allMatch("n1"::equals);
    }

    @Test
    void aNodeThatTakesTheCellOverForgetsWhereItWas() throws Exception {
        CellIdentity cell = id(8);
        // n1's lease runs 1 s: dead for peers once that plus the default clock-skew margin (2 s) passed
        TwoNodes t = n1OwnsAndN2Forwards(cell, 1_000, bucket);
        Cells n2 = t.n2();
        CellRouter router = t.router();
        PeerStandIn peers = t.peers();
        assertThat(body(router.fetch(cell, get("/")))).isEqualTo("from n1");
        assertThat(n2.ownerHints()).isEqualTo(1);

        // n1 dies: its lease runs out while n2's hint is still fresh; the unreachable owner makes n2
        // resolve again, and the expired lease lets it take the cell.
        clock.addAndGet(3_500);
        assertThat(3_500L).isLessThan(OwnerHints.HINT_MS).isGreaterThan(1_000 + Liveness.DEFAULT_SKEW_MS);
        peers.refuse = new ForwardFailedException(ForwardFailure.Kind.CONNECT_FAILED, "owner n1 unreachable");
        // (no replicator here, so n2 starts the counter from its own empty database)
        assertThat(body(router.fetch(cell, get("/")))).as("n2 serves the cell itself").isEqualTo("1");
        assertThat(n2.ownerHints()).isZero();
        assertThat(body(router.fetch(cell, get("/")))).isEqualTo("2");
        assertThat(peers.calls).containsExactly("n1", "n1");
    }
}
