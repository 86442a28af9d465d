package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Routing and placement judge a peer's lease like every other verdict: dead only past expiry + margin. */
class FleetViewLivenessTest {
    static final long NOW = 1_700_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void aPeerWhoseClockIsBehindOursStaysRoutableWithinTheMargin() throws Exception {
        try (FileBucketStore bucket = new FileBucketStore("file://" + dir, dir, false)) {
            bucket.put(Keys.lease("behind"), new LeaseRecord("behind", "s", "h:1", 1, 0, NOW - 1_500, LeaseRecord.Load.IDLE).encode()).get();
            bucket.put(Keys.lease("dead"), new LeaseRecord("dead", "s", "h:2", 1, 0, NOW - 2_000, LeaseRecord.Load.IDLE).encode()).get();
            FleetView view = new FleetView(bucket, () -> NOW, new ManualScheduler(NOW), 1_000, Liveness.withSkew(2_000));
            view.refresh().get(10, TimeUnit.SECONDS);
            assertThat(view.liveNodes()).extracting(LeaseRecord::node).containsExactly("behind");
            assertThat(view.placementTarget("me")).isEqualTo("behind");
            assertThat(view.isLive(view.readLease("dead").get().orElseThrow())).isFalse();
        }
    }

    /**
     * A crashed peer is seen dead one bucket read after its lease can first be judged so, not up to a
     * whole refresh later: its cells' alarms wait on that moment (SPEC §18, within TTL + 1 s).
     */
    @Test
    void aDyingPeerIsLookedAtAgainJustPastItsExpiryPlusTheMargin() throws Exception {
        try (FileBucketStore bucket = new FileBucketStore("file://" + dir, dir, false)) {
            // the peer's last renewal expires 200 ms from now; with a 500 ms margin it is dead from +700
            bucket.put(Keys.lease("peer"), new LeaseRecord("peer", "s", "h:1", 1, 0, NOW + 200, LeaseRecord.Load.IDLE).encode()).get();
            ManualScheduler sched = new ManualScheduler(NOW);
            FleetView view = new FleetView(bucket, sched::now, sched, 1_000, Liveness.withSkew(500));
            java.util.List<Long> deaths = new java.util.concurrent.CopyOnWriteArrayList<>();
            view.onDeath("me", d -> deaths.add(sched.now()));
            view.start();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            for (long t = NOW; t <= NOW + 1_000 && deaths.isEmpty() && System.nanoTime() < end; t += 50) {
                sched.advanceTo(t);
                Thread.sleep(20); // the file bucket answers on its own threads
            }
            assertThat(deaths).as("seen dead at +700, well before the next refresh at +1000").hasSize(1);
            assertThat(deaths.get(0) - NOW).isBetween(700L, 750L);
            view.stop();
        }
    }
}
