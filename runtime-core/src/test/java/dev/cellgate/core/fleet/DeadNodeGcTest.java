package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.spi.bucket.BucketStoreContract;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeadNodeGcTest {
    static final long TICK = 1_000;
    static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path dir;
    FileBucketStore bucket;
    InterceptingStore store;
    /** The clock-skew margin the GC applies by default: a lease is dead only past expiry + margin. */
    static final long MARGIN = Liveness.DEFAULT_SKEW_MS;
    final AtomicLong now = new AtomicLong(T0);
    LogCapture log;

    @BeforeEach
    void open() {
        bucket = new FileBucketStore("file://" + dir, dir, false);
        store = new InterceptingStore(bucket);
        log = new LogCapture(DeadNodeGc.class);
    }

    @AfterEach
    void close() {
        log.close();
        bucket.close();
    }

    static String scope(int i) {
        return "Counter:" + String.format("%064x", i);
    }

    void lease(String keyNode, String bodyNode, long expires) throws Exception {
        bucket.put(Keys.lease(keyNode), new LeaseRecord(bodyNode, "s-" + bodyNode, "h:1", 1, 0, expires, LeaseRecord.Load.IDLE)
                .encode()).get();
    }

    void markers(String node, String gen, int n) throws Exception {
        List<CompletableFuture<?>> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(bucket.put(Keys.marker(node, gen, scope(i)), new byte[0]));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get();
    }

    List<String> keys(String prefix) throws Exception {
        return BucketStoreContract.listAll(bucket, prefix, 1000);
    }

    DeadNodeGc.PassReport pass(DeadNodeGc gc) throws Exception {
        return gc.runPass().get(30, TimeUnit.SECONDS);
    }

    @Test
    void retiresDeadNodesAndTheirMarkersOfEveryGenerationAndNothingElse() throws Exception {
        lease("dead", "dead", T0 - 1 - MARGIN);
        markers("dead", "gen1", 150); // more than the 64 in flight
        markers("dead", "gen2", 3);
        lease("live", "live", T0 + 5_000);
        markers("live", "g", 2);
        lease("alias", "someone-else", 0); // key and body disagree: malformed, never dead
        bucket.put(Keys.lease("garbled"), "{not json".getBytes(StandardCharsets.UTF_8)).get();
        lease("boundary", "boundary", T0 - MARGIN); // expiry + margin exactly now: not yet dead

        DeadNodeGc.PassReport r = pass(new DeadNodeGc(store, now::get, TICK));

        assertThat(r).isEqualTo(new DeadNodeGc.PassReport(1, 153, 1, 0, 0, false));
        assertThat(keys(Keys.NODES)).containsExactlyInAnyOrder(Keys.lease("live"), Keys.lease("alias"),
                Keys.lease("garbled"), Keys.lease("boundary"));
        assertThat(keys(Keys.markersOf("dead"))).isEmpty();
        assertThat(keys(Keys.markersOf("live"))).hasSize(2);
        assertThat(log.events("dead_node_reconciliation")).singleElement().satisfies(kv -> assertThat(kv)
                .containsEntry("markers_deleted", 153).containsEntry("retired", 1).containsEntry("failures", 0));
    }

    @Test
    void aNodeThatRenewsBetweenTheReadAndTheTombstoneKeepsItsRecord() throws Exception {
        // The node's real lease keeper, on a clock the GC sees as long expired (GC clock far ahead).
        ManualScheduler sched = new ManualScheduler(T0);
        AtomicReference<String> fenced = new AtomicReference<>();
        LeaseKeeper keeper = new LeaseKeeper(bucket, new Self("n1", "s1"), "h:1", 1, 3_000, sched::now, sched,
                () -> LeaseRecord.Load.IDLE, fenced::set);
        keeper.start().get();
        markers("n1", "s1", 2);
        now.set(T0 + 60_000);
        // Inject the renewal exactly between the GC's read and its tombstone CAS.
        store.beforeCas = key -> {
            if (!key.equals(Keys.lease("n1"))) {
                return CompletableFuture.completedFuture(null);
            }
            store.beforeCas = k -> CompletableFuture.completedFuture(null);
            return CompletableFuture.runAsync(() -> sched.advanceTo(T0 + 1_000)).thenCompose(x -> awaitRenewal(keeper, T0 + 4_000));
        };

        DeadNodeGc.PassReport r = pass(new DeadNodeGc(store, now::get, TICK));

        assertThat(r.retired()).isZero();
        assertThat(r.dead()).isEqualTo(1);
        LeaseRecord kept = LeaseRecord.decode(bucket.get(Keys.lease("n1")).get().orElseThrow().bytes());
        assertThat(kept.session()).isEqualTo("s1");
        assertThat(kept.expiresMs()).isEqualTo(T0 + 4_000);
        assertThat(log.events("dead_node_gc.renewed")).hasSize(1);
        // the node keeps renewing as if nothing happened
        sched.advanceTo(T0 + 2_000);
        awaitRenewal(keeper, T0 + 5_000).get(60, TimeUnit.SECONDS);
        assertThat(fenced.get()).isNull();
    }

    static CompletableFuture<Void> awaitRenewal(LeaseKeeper keeper, long expiry) {
        return CompletableFuture.runAsync(() -> {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (keeper.publishedExpiryMs() != expiry && System.nanoTime() < until) {
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            assertThat(keeper.publishedExpiryMs()).isEqualTo(expiry);
        });
    }

    @Test
    void aTombstoneLeftByACrashBetweenCasAndDeleteIsRemovedByTheNextPass() throws Exception {
        lease("dead", "dead", T0 - 10 - MARGIN);
        markers("dead", "g", 2);
        store.hangDelete = Keys.lease("dead")::equals; // the GC process dies in the delete
        CompletableFuture<DeadNodeGc.PassReport> crashed = new DeadNodeGc(store, now::get, TICK).runPass();
        awaitTrue(() -> store.deletes.contains(Keys.lease("dead")));
        assertThat(crashed).isNotDone();
        LeaseRecord tomb = LeaseRecord.decode(bucket.get(Keys.lease("dead")).get().orElseThrow().bytes());
        assertThat(tomb.isTombstone()).isTrue();
        assertThat(tomb.node()).isEqualTo("dead");

        // A new process (no memory of the old one) on another node, at the next tick.
        store.hangDelete = k -> false;
        now.addAndGet(TICK);
        DeadNodeGc.PassReport r = pass(new DeadNodeGc(store, now::get, TICK));
        assertThat(r.retired()).isEqualTo(1);
        assertThat(keys(Keys.NODES)).isEmpty();
    }

    @Test
    void aFailedPlainDeleteLeavesTheTombstoneForTheNextPassOfTheSameGc() throws Exception {
        lease("dead", "dead", T0 - 10 - MARGIN);
        store.failDelete = Keys.lease("dead")::equals;
        DeadNodeGc gc = new DeadNodeGc(store, now::get, TICK);
        DeadNodeGc.PassReport first = pass(gc);
        assertThat(first.retired()).isZero();
        assertThat(first.failures()).isEqualTo(1);
        store.failDelete = k -> false;
        now.addAndGet(TICK);
        assertThat(pass(gc).retired()).isEqualTo(1);
        assertThat(keys(Keys.NODES)).isEmpty();
    }

    @Test
    void markerDeleteFailuresBackOffOneTickDoublingCappedAtSixtyFour() throws Exception {
        lease("dead", "dead", T0 - 10 - MARGIN);
        markers("dead", "g", 3);
        store.failDelete = k -> k.startsWith(Keys.markersOf("dead"));
        DeadNodeGc gc = new DeadNodeGc(store, now::get, TICK);
        List<Integer> attemptedAt = new ArrayList<>();
        for (int tick = 0; tick <= 200; tick++) {
            now.set(T0 + tick * TICK);
            int before = store.deletes.size();
            DeadNodeGc.PassReport r = pass(gc);
            if (store.deletes.size() > before) {
                attemptedAt.add(tick);
                assertThat(r.failures()).isEqualTo(3);
            } else {
                assertThat(r.deferred()).isEqualTo(1);
            }
        }
        assertThat(attemptedAt).containsExactly(0, 1, 3, 7, 15, 31, 63, 127, 191);
        List<Object> delays = log.events("dead_node_gc.retry_scheduled").stream().map(kv -> kv.get("delay_ticks")).toList();
        assertThat(delays).containsExactly(1L, 2L, 4L, 8L, 16L, 32L, 64L, 64L, 64L);
        assertThat(keys(Keys.NODES)).as("the lease stays while markers remain").hasSize(1);
        assertThat(gc.failuresOf("dead")).isEqualTo(9);

        // the bucket heals: the next due attempt cleans up and forgets the backoff
        store.failDelete = k -> false;
        now.set(T0 + 255 * TICK);
        DeadNodeGc.PassReport r = pass(gc);
        assertThat(r.markersDeleted()).isEqualTo(3);
        assertThat(r.retired()).isEqualTo(1);
        assertThat(gc.failuresOf("dead")).isZero();
        assertThat(keys(Keys.NODE_CELLS)).isEmpty();
    }

    @Test
    void backoffIsInMemoryOnlyAndANewProcessStartsOver() throws Exception {
        lease("dead", "dead", T0 - 10 - MARGIN);
        markers("dead", "g", 1);
        store.failDelete = k -> k.startsWith(Keys.NODE_CELLS);
        DeadNodeGc first = new DeadNodeGc(store, now::get, TICK);
        pass(first);
        now.addAndGet(TICK);
        pass(first);
        assertThat(first.failuresOf("dead")).isEqualTo(2);
        DeadNodeGc restarted = new DeadNodeGc(store, now::get, TICK);
        int before = store.deletes.size();
        pass(restarted);
        assertThat(store.deletes.size()).as("no backoff carried over").isGreaterThan(before);
        assertThat(restarted.failuresOf("dead")).isEqualTo(1);
    }

    @Test
    void malformedMarkerKeysAreSkippedAndDoNotBlockRetirement() throws Exception {
        lease("dead", "dead", T0 - 10 - MARGIN);
        markers("dead", "g", 1);
        bucket.put("node-cells/dead/g/not-a-scope", new byte[0]).get();
        DeadNodeGc.PassReport r = pass(new DeadNodeGc(store, now::get, TICK));
        assertThat(r.markersDeleted()).isEqualTo(1);
        assertThat(r.retired()).isEqualTo(1);
        assertThat(keys(Keys.NODE_CELLS)).containsExactly("node-cells/dead/g/not-a-scope");
        assertThat(log.events("dead_node_gc.marker_malformed")).hasSize(1);
    }

    @Test
    void aCancelledPassTouchesNothing() throws Exception {
        lease("dead", "dead", T0 - 10 - MARGIN);
        markers("dead", "g", 1);
        DeadNodeGc.PassReport r = new DeadNodeGc(store, now::get, TICK).runPass(() -> true).get(60, TimeUnit.SECONDS);
        assertThat(r.cancelled()).isTrue();
        assertThat(keys(Keys.NODES)).hasSize(1);
        assertThat(keys(Keys.NODE_CELLS)).hasSize(1);
    }

    @Test
    void twoGcsRacingOverTheSameDeadNodesAreHarmless() throws Exception {
        for (int i = 0; i < 20; i++) {
            lease("dead" + i, "dead" + i, T0 - 10 - MARGIN);
            markers("dead" + i, "g", 5);
        }
        lease("live", "live", T0 + 10_000);
        CompletableFuture<DeadNodeGc.PassReport> a = new DeadNodeGc(bucket, now::get, TICK).runPass();
        CompletableFuture<DeadNodeGc.PassReport> b = new DeadNodeGc(bucket, now::get, TICK).runPass();
        DeadNodeGc.PassReport ra = a.get(30, TimeUnit.SECONDS);
        DeadNodeGc.PassReport rb = b.get(30, TimeUnit.SECONDS);
        assertThat(keys(Keys.NODES)).containsExactly(Keys.lease("live"));
        assertThat(keys(Keys.NODE_CELLS)).isEmpty();
        assertThat(ra.retired() + rb.retired()).as("each node retired at least once").isGreaterThanOrEqualTo(20);
        List<Map<String, Object>> lines = log.events("dead_node_reconciliation");
        assertThat(lines).hasSize(2);
    }

    static void awaitTrue(java.util.function.BooleanSupplier c) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!c.getAsBoolean() && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertThat(c.getAsBoolean()).as("condition within 10 s").isTrue();
    }
}
