package dev.cellgate.core.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.spi.replication.ReplicaStats;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ReplicationTotalsTest {
    /** A replica whose counters the test moves (replication itself is not under test here). */
    static final class CountingReplica implements CellReplica {
        volatile long bytes;
        volatile long segments;
        volatile long pending;
        volatile long snapshots;

        @Override
        public CompletableFuture<Void> committed() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> flush() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void detach() {
        }

        @Override
        public ReplicaStats stats() {
            return new ReplicaStats(bytes, segments, pending, snapshots);
        }
    }

    @Test
    void totalsSumAttachedReplicasAndKeepWhatDetachedOnesDid() {
        ReplicationTotals totals = new ReplicationTotals();
        CountingReplica a = new CountingReplica();
        CountingReplica b = new CountingReplica();
        totals.attached(a);
        totals.attached(b);
        a.bytes = 100;
        a.segments = 2;
        a.pending = 7;
        b.bytes = 50;
        b.segments = 1;
        b.snapshots = 1;
        b.pending = 3;
        assertThat(totals.snapshot()).isEqualTo(new ReplicaStats(150, 3, 10, 1));

        totals.detached(a);
        assertThat(totals.snapshot()).as("a detached replica's uploads stay counted; its pending bytes do not")
                .isEqualTo(new ReplicaStats(150, 3, 3, 1));
        a.bytes = 999; // a detached replica is no longer read
        assertThat(totals.snapshot().bytesUploaded()).isEqualTo(150);
        assertThat(totals.attachedCount()).isEqualTo(1);
    }

    @Test
    void detachingTwiceOrAnUnknownReplicaCountsNothingTwice() {
        ReplicationTotals totals = new ReplicationTotals();
        CountingReplica a = new CountingReplica();
        a.bytes = 10;
        totals.attached(a);
        totals.detached(a);
        totals.detached(a);
        totals.detached(new CountingReplica());
        totals.attached(null);
        totals.detached(null);
        assertThat(totals.snapshot().bytesUploaded()).isEqualTo(10);
    }

    @Test
    void uploadedBytesNeverDecreaseAcrossAttachAndDetach() {
        ReplicationTotals totals = new ReplicationTotals();
        long last = 0;
        for (int i = 0; i < 50; i++) {
            CountingReplica r = new CountingReplica();
            totals.attached(r);
            r.bytes = i * 3L;
            long mid = totals.snapshot().bytesUploaded();
            totals.detached(r);
            long after = totals.snapshot().bytesUploaded();
            assertThat(mid).isGreaterThanOrEqualTo(last);
            assertThat(after).isEqualTo(mid);
            last = after;
        }
    }
}
