package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.LeaseRenewal;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.logic.NodeAuthority;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29, item 4: a node whose bucket stops answering for longer than its lease lapses, and comes
 * back under a NEW session once the bucket answers, without a restart. The real lease keeper and
 * the real decision class, on a file bucket behind a switch that holds every call while the bucket
 * "stalls" and resets them when it comes back (what the fault proxy's cut-off does).
 */
class RejoinTest {
    static final long T0 = 1_000_000;
    static final long TTL = 3_000;

    @TempDir
    Path dir;
    private FileBucketStore real;
    private StallingStore bucket;
    private final ManualScheduler sched = new ManualScheduler(T0);
    private final List<LeaseRenewal.Fence> fences = new CopyOnWriteArrayList<>();
    private final List<NodeAuthority.Rejoined> rejoins = new CopyOnWriteArrayList<>();
    private final AtomicReference<String> exited = new AtomicReference<>();
    private final AtomicReference<LeaseKeeper> current = new AtomicReference<>();
    private final AtomicInteger sessions = new AtomicInteger();
    private NodeAuthority authority;
    private Rejoin rejoin;

    /** Holds every call while stalled; lifting the stall resets the held ones, as a cut-off proxy does. */
    static final class StallingStore extends ForwardingBucketStore {
        volatile boolean stalled;
        final List<CompletableFuture<?>> held = new CopyOnWriteArrayList<>();
        final AtomicInteger heldGets = new AtomicInteger();

        StallingStore(BucketStore inner) {
            super(inner);
        }

        private <T> CompletableFuture<T> maybe(Supplier<CompletableFuture<T>> call, boolean isGet) {
            if (!stalled) {
                return call.get();
            }
            CompletableFuture<T> f = new CompletableFuture<>();
            held.add(f);
            if (isGet) {
                heldGets.incrementAndGet();
            }
            return f;
        }

        void lift() {
            stalled = false;
            List<CompletableFuture<?>> all = new ArrayList<>(held);
            held.clear();
            heldGets.set(0);
            all.forEach(f -> f.completeExceptionally(new java.io.IOException("connection reset (stall lifted)")));
        }

        @Override
        public CompletableFuture<Optional<StoredObject>> get(String key) {
            return maybe(() -> inner.get(key), true);
        }

        @Override
        public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
            return maybe(() -> inner.putIfAbsent(key, bytes), false);
        }

        @Override
        public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
            return maybe(() -> inner.putIfVersion(key, bytes, version), false);
        }

        @Override
        public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
            return maybe(() -> inner.put(key, bytes), false);
        }

        @Override
        public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
            return maybe(() -> inner.list(prefix, cursor, limit), false);
        }

        @Override
        public CompletableFuture<Void> delete(String key) {
            return maybe(() -> inner.delete(key), false);
        }
    }

    LeaseKeeper keeper(Self self) {
        return LeaseKeeper.reportingKinds(bucket, self, "h:1", 1, TTL, Liveness.withSkew(Liveness.defaultSkewMs(TTL)), sched::now,
                sched::now, sched, () -> LeaseRecord.Load.IDLE, f -> fenced(self.session(), f));
    }

    void fenced(String session, LeaseRenewal.Fence f) {
        fences.add(f);
        NodeAuthority.OnFence d;
        synchronized (authority) {
            d = authority.fenced(session, f.kind(), f.cause(), sched.now());
        }
        if (d instanceof NodeAuthority.OnFence.Degrade g) {
            synchronized (authority) {
                authority.cellsStopped(g.episode()); // no cells in this test
            }
            rejoin.drive();
        } else if (d instanceof NodeAuthority.OnFence.Exit x) {
            exited.set(x.why());
        }
    }

    @BeforeEach
    void aServingNode() throws Exception {
        real = new FileBucketStore("file://" + dir, dir, false);
        bucket = new StallingStore(real);
        authority = new NodeAuthority("s0", TTL, false);
        rejoin = new Rejoin(bucket, "n1", authority, sched, sched::now, () -> "s" + sessions.incrementAndGet(), new Rejoin.Host() {
            @Override
            public LeaseKeeper keeperFor(Self self) {
                return keeper(self);
            }

            @Override
            public void rejoined(LeaseKeeper keeper, NodeAuthority.Rejoined r) {
                current.set(keeper);
                rejoins.add(r);
            }

            @Override
            public void exit(String why) {
                exited.set(why);
            }
        });
        LeaseKeeper first = keeper(new Self("n1", "s0"));
        first.start().get(10, TimeUnit.SECONDS);
        authority.started();
        current.set(first);
    }

    @AfterEach
    void close() {
        real.close();
    }

    LeaseRecord stored() throws Exception {
        return LeaseRecord.decode(real.get(Keys.lease("n1")).get().orElseThrow().bytes());
    }

    void advance(long ms, long step) throws Exception {
        long end = sched.now() + ms;
        while (sched.now() < end) {
            sched.advanceTo(Math.min(end, sched.now() + step));
            Thread.sleep(2); // the file store answers on its own threads
        }
    }

    @Test
    void aStallLongerThanTheLeaseDegradesAndTheNodeRejoinsUnderANewSessionOnceTheBucketAnswers() throws Exception {
        LeaseKeeper old = current.get();
        bucket.stalled = true;
        advance(2 * TTL, 50);
        assertThat(fences).hasSize(1);
        assertThat(fences.get(0).kind()).isEqualTo(LeaseRenewal.FenceKind.LAPSED);
        assertThat(authority.degraded()).isTrue();
        assertThat(old.canServe()).isFalse();
        assertThat(exited.get()).as("a lapse does not exit").isNull();
        assertThat(bucket.heldGets.get()).as("probes unanswered at once").isBetween(1, NodeAuthority.MAX_PROBES);
        assertThat(rejoins).isEmpty();

        bucket.lift();
        advance(TTL, 20);
        assertThat(rejoins).hasSize(1);
        NodeAuthority.Rejoined r = rejoins.get(0);
        assertThat(r.previousSession()).isEqualTo("s0");
        assertThat(r.session()).isNotEqualTo("s0");
        assertThat(stored().session()).as("the record peers read").isEqualTo(r.session());
        assertThat(current.get().canServe()).isTrue();
        assertThat(old.canServe()).as("the fenced session never serves again").isFalse();
        assertThat(authority.serving()).isTrue();
        assertThat(authority.deadSessions()).contains("s0");
        // and the new session renews
        advance(3 * TTL, 50);
        assertThat(current.get().canServe()).isTrue();
        assertThat(fences).hasSize(1);
    }

    @Test
    void aLeaseTakenByAnotherProcessOfTheSameNodeIdWhileStalledEndsInAnExit() throws Exception {
        bucket.stalled = true;
        advance(2 * TTL, 50);
        assertThat(authority.degraded()).isTrue();
        // another process with this CELLD_NODE started meanwhile (through its own path to the bucket)
        LeaseRecord mine = stored();
        LeaseRecord theirs = new LeaseRecord("n1", "zz", "h:2", 1, sched.now(), sched.now() + 60_000, LeaseRecord.Load.IDLE);
        String v = real.get(Keys.lease("n1")).get().orElseThrow().version();
        assertThat(real.putIfVersion(Keys.lease("n1"), theirs.encode(), v).get()).isInstanceOf(WriteOutcome.Written.class);
        assertThat(mine.session()).isEqualTo("s0");
        bucket.lift();
        advance(TTL, 20);
        assertThat(exited.get()).contains("another process holds this node id").contains("zz");
        assertThat(stored().session()).as("its lease is left alone").isEqualTo("zz");
        assertThat(rejoins).isEmpty();
    }
}
