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
}
