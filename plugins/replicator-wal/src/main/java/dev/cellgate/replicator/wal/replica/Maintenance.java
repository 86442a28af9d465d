package dev.cellgate.replicator.wal.replica;

import dev.cellgate.core.async.AsyncLimiter;
import dev.cellgate.core.spi.replication.OwnershipCheck;
import dev.cellgate.replicator.wal.WalPolicy;
import dev.cellgate.replicator.wal.bucket.BucketReads;
import dev.cellgate.replicator.wal.bucket.DurableWrites;
import dev.cellgate.replicator.wal.format.LineageEnd;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.ObjectKey;
import dev.cellgate.replicator.wal.restore.Retention;
import dev.cellgate.replicator.wal.format.SegmentCodec;
import dev.cellgate.replicator.wal.format.SegmentKind;
import dev.cellgate.replicator.wal.format.SnapshotManifest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Background work of one replica, one task at a time (a serial lane), off the commit path:
 * compaction of l0 segments into l1, snapshots, and garbage collection. Anything here may fail
 * without harming a commit: a failed task is logged and retried at the next trigger. Deletions
 * happen only after an ownership check that followed the landing of what covers them.
 */
final class Maintenance implements UploadPipeline.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(Maintenance.class);

    private final LineageKeys keys;
    private final long epoch;
    private final DurableWrites writes;
    private final OwnershipCheck ownership;
    private final WalPolicy policy;
    private final long snapshotEveryBytes;
    private final ReplicaHost host;
    private final SnapshotWriter snapshots;
    private final GarbageCollector gc;
    private final Retention retention;
    private CompletableFuture<Void> lane = CompletableFuture.completedFuture(null);
    private CommitBatch l1;
    private final List<String> l1Keys = new ArrayList<>();
    private int segmentsSinceSnapshot;
    private long bytesSinceSnapshot;
    private long lastSnapshotTxid = -1;
    private boolean snapshotQueued;
    private long extraBytes;
    private long snapshotsTaken;
    private volatile boolean stopped;

    /** What maintenance needs from the replica: executor-side steps. */
    interface ReplicaHost {
        /** Runs on the cell's executor: full checkpoint, pause checkpoints; {@code null} when not possible now. */
        CompletableFuture<SnapshotPoint> snapshotPoint();

        void resumeCheckpoints();

        /** Posts a checkpoint check to the cell's executor. */
        void checkpointSoon();

        java.nio.file.Path dbFile();

        void diverged(Throwable cause);
    }

    Maintenance(LineageKeys keys, long epoch, DurableWrites writes, BucketReads reads, OwnershipCheck ownership,
                WalPolicy policy, long snapshotEveryBytes, Executor io, ReplicaHost host, LineageEnd inherited,
                Retention retention) {
        this.retention = retention;
        this.keys = keys;
        this.epoch = epoch;
        this.writes = writes;
        this.ownership = ownership;
        this.policy = policy;
        this.snapshotEveryBytes = snapshotEveryBytes;
        this.host = host;
        this.snapshots = new SnapshotWriter(keys, epoch, writes, io, policy.chunkBytes(), Math.min(4, policy.parallelism()));
        this.gc = new GarbageCollector(keys, reads, epoch, policy.parallelism(), policy.pins(), retention);
        this.segmentsSinceSnapshot = inherited.segmentsSinceSnapshot();
        this.bytesSinceSnapshot = inherited.bytesSinceSnapshot();
    }

    /** After the pin: collect what older epochs left behind, and snapshot at once if the lineage is long. */
    void afterPin(CompletableFuture<Void> pin, boolean collectGarbage, boolean snapshotNow) {
        if (collectGarbage) {
            enqueue("gc_after_pin", () -> pin.thenCompose(x -> confirmOwner()).thenCompose(owner -> owner
                    ? gc.collect().thenAccept(n -> { }) : CompletableFuture.completedFuture(null)));
        }
        if (snapshotNow) {
            synchronized (this) {
                snapshotQueued = true;
            }
            enqueue("snapshot", this::snapshot);
        }
    }

    @Override
    public void confirmed(CommitBatch batch, String key, int bytes) {
        try {
            afterSegment(batch, key, bytes);
        } catch (RuntimeException e) {
            // Maintenance must never break the commit path; it is retried at the next segment.
            LOG.atError().setMessage("replica.maintenance_failed").addKeyValue("scope", keys.scope()).addKeyValue("epoch", epoch)
                    .addKeyValue("task", "schedule").addKeyValue("error", e.toString()).setCause(e).log();
            synchronized (this) {
                dropL1();
            }
        }
        host.checkpointSoon();
    }

    private void afterSegment(CommitBatch batch, String key, int bytes) {
        synchronized (this) {
            segmentsSinceSnapshot++;
            bytesSinceSnapshot += bytes;
            if (batch.minTxid() <= lastSnapshotTxid) {
                dropL1(); // before the newest snapshot: nothing to compact, the GC after the snapshot removes it
            } else if (batch.pageBytes() >= policy.l1MaxBytes()) {
                takeL1(); // a big segment stays alone; compaction resumes after it
            } else {
                if (l1 == null) {
                    l1 = CommitBatch.startingLike(batch);
                }
                l1.absorb(batch);
                l1Keys.add(key);
                if (l1Keys.size() >= policy.l1EveryL0() || l1.pageBytes() >= policy.l1MaxBytes()) {
                    takeL1();
                }
            }
            if (!snapshotQueued && (bytesSinceSnapshot >= snapshotEveryBytes || segmentsSinceSnapshot > policy.maxRestoreSegments())) {
                snapshotQueued = true;
                enqueue("snapshot", this::snapshot);
            }
        }
    }

    @Override
    public void failed(Throwable cause) {
        stopped = true;
    }

    void stop() {
        stopped = true;
    }

    boolean stopped() {
        return stopped;
    }

    synchronized long extraBytes() {
        return extraBytes;
    }

    synchronized long snapshotsTaken() {
        return snapshotsTaken;
    }

    /** The lane: resolves when queued work is done (tests wait on it). */
    synchronized CompletableFuture<Void> idle() {
        return lane;
    }

    private void takeL1() {
        if (l1 != null && l1Keys.size() >= 2) {
            CommitBatch merged = l1;
            List<String> covered = List.copyOf(l1Keys);
            enqueue("compaction", () -> writeL1(merged, covered));
        }
        l1 = null;
        l1Keys.clear();
    }

    private void dropL1() {
        l1 = null;
        l1Keys.clear();
    }

    /**
     * A restore that starts at a snapshot needs a segment starting right after it; an l1 reaching
     * across the snapshot is useless to it, and deleting that l1's l0s would leave a gap. So no l1
     * may start at or before a snapshot's txid (set before the snapshot's first upload).
     */
    private CompletableFuture<Void> writeL1(CommitBatch merged, List<String> covered) {
        synchronized (this) {
            if (merged.minTxid() <= lastSnapshotTxid) {
                return CompletableFuture.completedFuture(null);
            }
        }
        byte[] bytes = merged.encode(SegmentKind.L1, SegmentCodec.scopeTag(keys.scope()), epoch);
        String key = keys.segment(epoch, SegmentKind.L1, merged.minTxid(), merged.maxTxid(), lastTime(covered));
        return writes.create(key, bytes).thenCompose(x -> {
            synchronized (this) {
                extraBytes += bytes.length;
            }
            return confirmOwner();
        }).thenCompose(owner -> {
            if (!owner) {
                return CompletableFuture.completedFuture(null);
            }
            if (retention.on()) {
                // Each l0 end is a state a bookmark may name: the collector drops them once they leave the window.
                synchronized (this) {
                    segmentsSinceSnapshot -= covered.size() - 1;
                }
                return CompletableFuture.<Void>completedFuture(null);
            }
            return AsyncLimiter.map(covered, policy.parallelism(), k -> writes.store().delete(k).handle((v, e) -> e == null))
                    .thenAccept(done -> {
                        synchronized (this) {
                            segmentsSinceSnapshot -= covered.size() - 1;
                        }
                    });
        });
    }

    /** The l1's time: its last l0's (the time its newest commit became durable). */
    private long lastTime(List<String> covered) {
        long t = 0;
        for (String k : covered) {
            ObjectKey o = keys.parse(k);
            if (o != null && o.timed()) {
                t = Math.max(t, o.timeMs());
            }
        }
        return t;
    }

    private CompletableFuture<Void> snapshot() {
        CompletableFuture<SnapshotPoint> taken;
        try {
            taken = host.snapshotPoint();
        } catch (RuntimeException e) { // the cell's executor refused the task: it is shutting down
            taken = CompletableFuture.failedFuture(e);
        }
        return taken.thenCompose(point -> {
            if (point == null || point.position().pages() == 0) {
                host.resumeCheckpoints();
                return CompletableFuture.<Void>completedFuture(null);
            }
            synchronized (this) {
                lastSnapshotTxid = point.position().txid();
                if (l1 != null && l1.minTxid() <= lastSnapshotTxid) {
                    dropL1();
                }
            }
            return snapshots.writeChunks(host.dbFile(), point.position(), this::stopped)
                    .whenComplete((m, err) -> host.resumeCheckpoints())
                    .thenCompose(manifest -> point.durable().thenCompose(x -> writeManifest(manifest)))
                    .thenCompose(x -> confirmOwner())
                    .thenCompose(owner -> {
                        synchronized (this) {
                            snapshotsTaken++;
                            segmentsSinceSnapshot = 0;
                            bytesSinceSnapshot = 0;
                        }
                        LOG.atInfo().setMessage("replica.snapshot").addKeyValue("scope", keys.scope()).addKeyValue("epoch", epoch)
                                .addKeyValue("txid", point.position().txid()).addKeyValue("pages", point.position().pages()).log();
                        return owner ? gc.collect().thenAccept(n -> { }) : CompletableFuture.<Void>completedFuture(null);
                    })
                    .whenComplete((x, err) -> {
                        if (err != null && isDivergence(err)) {
                            host.diverged(err);
                        }
                    });
        }).whenComplete((x, err) -> {
            synchronized (this) {
                snapshotQueued = false;
            }
        });
    }

    private CompletableFuture<Void> writeManifest(SnapshotManifest m) {
        byte[] bytes = m.toBytes();
        return writes.create(keys.snapshotManifest(epoch, m.position().txid()), bytes).thenAccept(x -> {
            synchronized (this) {
                extraBytes += bytes.length + m.chunks().stream().mapToLong(SnapshotManifest.Chunk::bytes).sum();
            }
        });
    }

    private CompletableFuture<Boolean> confirmOwner() {
        try {
            return ownership.stillOwner().thenApply(Boolean.TRUE::equals);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static boolean isDivergence(Throwable err) {
        for (Throwable t = err; t != null; t = t.getCause()) {
            if (t instanceof dev.cellgate.replicator.wal.sqlite.WalException) {
                return true;
            }
        }
        return false;
    }

    private synchronized void enqueue(String what, Supplier<CompletableFuture<Void>> task) {
        LOG.atDebug().setMessage("replica.maintenance_queued").addKeyValue("scope", keys.scope()).addKeyValue("task", what).log();
        lane = lane.thenCompose(x -> stopped ? CompletableFuture.<Void>completedFuture(null) : safe(task))
                .thenRun(() -> LOG.atDebug().setMessage("replica.maintenance_done").addKeyValue("scope", keys.scope())
                        .addKeyValue("task", what).log())
                .exceptionally(err -> {
                    if (!stopped) {
                        LOG.atWarn().setMessage("replica.maintenance_failed").addKeyValue("scope", keys.scope())
                                .addKeyValue("epoch", epoch).addKeyValue("task", what).addKeyValue("error", String.valueOf(err)).log();
                    }
                    return null;
                });
    }

    private static CompletableFuture<Void> safe(Supplier<CompletableFuture<Void>> task) {
        try {
            return task.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
