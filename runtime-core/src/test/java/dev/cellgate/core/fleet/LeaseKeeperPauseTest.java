package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Found by the simulator (seed 10): a process paused (SIGSTOP, a long GC) past its lease expiry
 * resumes with its renewal timer due before its expiry watch. It must fence, not renew: a renewal
 * issued after the expiry brings a lease back that peers already treated as dead (they may have
 * taken its cells over), and keeps its own restarted process out until it expires again.
 */
class LeaseKeeperPauseTest {
    static final long T0 = 1_000_000;

    @TempDir
    Path dir;

    @Test
    void aProcessResumingAfterItsExpiryFencesInsteadOfRenewing() throws Exception {
        try (FileBucketStore bucket = new FileBucketStore("file://" + dir, dir, false)) {
            ManualScheduler sched = new ManualScheduler(T0);
            AtomicReference<String> fenced = new AtomicReference<>();
            java.util.concurrent.atomic.AtomicLong clock = new java.util.concurrent.atomic.AtomicLong(T0);
            LeaseKeeper keeper = new LeaseKeeper(bucket, new Self("n1", "s1"), "h:1", 1, 3_000, clock::get, sched,
                    () -> LeaseRecord.Load.IDLE, fenced::set);
            keeper.start().get(10, TimeUnit.SECONDS);
            // paused from T0 to T0 + 5 s: the renewal (due at +1 s) and the watch (+3 s) both fire on resume
            clock.set(T0 + 5_000);
            sched.advanceTo(T0 + 5_000);
            Thread.sleep(200); // let a renewal, if one was (wrongly) sent, land on the store's threads
            LeaseRecord stored = LeaseRecord.decode(bucket.get(Keys.lease("n1")).get().orElseThrow().bytes());
            assertThat(stored.expiresMs()).as("no renewal after the expiry").isEqualTo(T0 + 3_000);
            assertThat(fenced.get()).isNotNull().contains("expired");
            assertThat(keeper.canServe()).isFalse();
        }
    }
}
