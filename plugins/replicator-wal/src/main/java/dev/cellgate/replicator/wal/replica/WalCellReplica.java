package dev.cellgate.replicator.wal.replica;

import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.spi.replication.OwnershipCheck;
import dev.cellgate.core.spi.replication.ReplicaStats;
import dev.cellgate.core.spi.replication.ReplicatorConfig;
import dev.cellgate.core.spi.replication.WalCheckpoint;
import dev.cellgate.replicator.wal.WalPolicy;
import dev.cellgate.replicator.wal.bucket.BucketReads;
import dev.cellgate.replicator.wal.bucket.DurableWrites;
import dev.cellgate.replicator.wal.format.LineageEnd;
import dev.cellgate.core.logic.Bookmark;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.restore.Retention;
import dev.cellgate.replicator.wal.format.Position;
import dev.cellgate.replicator.wal.format.ReplicaMetadata;
import dev.cellgate.replicator.wal.sqlite.DbImage;
import dev.cellgate.replicator.wal.sqlite.WalFileReader;
import dev.cellgate.replicator.wal.sqlite.WalTxn;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replication of one attached cell database at one epoch.
 *
 * <p>Everything that touches the database files — reading new WAL frames, checkpointing —
 * happens on the cell's executor, between the cell's own transactions. Frames are read right
 * after each commit and held in memory until durable, so a checkpoint never loses anything.
 */
public final class WalCellReplica implements CellReplica, UploadPipeline.Listener, Maintenance.ReplicaHost {
    private static final Logger LOG = LoggerFactory.getLogger(WalCellReplica.class);

    private final String scope;
    private final long epoch;
    private final Path dbFile;
    private final Executor cellExecutor;
    private final WalPolicy policy;
    private final WalFileReader reader;
    private final DbImage image;
    private final WalCheckpoint checkpoint;
    private final Maintenance maintenance;
    private final UploadPipeline pipeline;
    private long txid;
    private volatile boolean detached;
    private volatile boolean checkpointsPaused;

    public WalCellReplica(String scope, long epoch, Path dbFile, Executor cellExecutor, OwnershipCheck ownership,
                          ReplicatorConfig config, WalPolicy policy, AttachState st) {
        this.scope = scope;
        this.epoch = epoch;
        this.dbFile = dbFile;
        this.cellExecutor = cellExecutor;
        this.policy = policy;
        this.reader = new WalFileReader(dbFile.resolveSibling(dbFile.getFileName() + "-wal"));
        this.image = st.image();
        this.checkpoint = st.checkpoint();
        this.txid = st.lineage().end().txid();
        LineageKeys keys = new LineageKeys(scope);
        DurableWrites writes = new DurableWrites(config.store());
        BucketReads reads = new BucketReads(config.store());
        this.maintenance = new Maintenance(keys, epoch, writes, reads, ownership, policy, config.snapshotEveryBytes(),
                config.ioExecutor(), this, st.lineage(),
                new Retention(config.pitrRetentionMs(), config.clock()));
        CompletableFuture<Void> pin = writes.createNew(keys.base(epoch), st.lineage().baseFor(scope, epoch).toBytes());
        this.pipeline = new UploadPipeline(writes, keys, epoch, ownership, this, pin, config.clock());
        if (st.seedPages() != null) {
            pipeline.seed(image.pageSize(), image.pages(), st.seedPages(), image.checksum());
        }
        LineageEnd l = st.lineage();
        boolean longLineage = l.spans().size() > policy.attachSnapshotSpans()
                || l.segmentsSinceSnapshot() > policy.maxRestoreSegments() / 2;
        maintenance.afterPin(pin, epoch > 1, longLineage && image.pages() > 0);
        LOG.atInfo().setMessage("replica.attached").addKeyValue("scope", scope).addKeyValue("epoch", epoch)
                .addKeyValue("txid", txid).addKeyValue("pages", image.pages()).log();
    }

    @Override
    public CompletableFuture<Void> committed() {
        return readAndGate();
    }

    @Override
    public CompletableFuture<Void> flush() {
        return readAndGate();
    }

    private CompletableFuture<Void> readAndGate() {
        if (detached) {
            return CompletableFuture.failedFuture(new IllegalStateException("replica of cell " + scope + " at epoch " + epoch + " is detached"));
        }
        try {
            readNew();
        } catch (IOException | RuntimeException e) {
            pipeline.fail(new IllegalStateException("cell " + scope + ": reading the WAL failed: " + e.getMessage(), e));
        }
        return pipeline.durable();
    }

    /** Executor only: ships every transaction committed since the last call. */
    private void readNew() throws IOException {
        List<WalTxn> txns = reader.readCommitted();
        for (WalTxn t : txns) {
            long pre = image.checksum();
            int prePages = image.pages();
            int low = image.apply(t);
            txid++;
            pipeline.add(txid, t.pageSize(), t.commitPages(), low, t.pages(), pre, prePages, image.checksum());
        }
    }

    @Override
    public Bookmark currentBookmark(long nowMs) {
        // This epoch's pin names how its lineage reaches every txid from its start on, so (epoch, txid)
        // restores also before this epoch wrote anything.
        return txid == 0 ? Bookmark.empty(nowMs) : new Bookmark(nowMs, epoch, txid);
    }

    @Override
    public void detach() {
        if (detached) {
            return;
        }
        maintenance.stop();
        boolean clean = false;
        try {
            readNew();
            if (pipeline.idle() && !checkpointsPaused) {
                WalCheckpoint.Result r = checkpoint.truncate();
                if (r.copiedAll() && !r.busy() && reader.fileSize() == 0) {
                    Position end = new Position(epoch, txid, image.checksum(), image.pages(), image.pageSize());
                    new ReplicaMetadata(scope, epoch, false, new LineageEnd(end, null, List.of(), 0, 0)).write(dbFile);
                    clean = true;
                }
            }
            if (!clean) {
                ReplicaMetadata.delete(dbFile);
            }
        } catch (IOException | RuntimeException e) {
            LOG.atWarn().setMessage("replica.detach_unclean").addKeyValue("scope", scope).addKeyValue("error", e.toString()).log();
            try {
                ReplicaMetadata.delete(dbFile);
            } catch (IOException ignored) {
                // the next attach re-checks the file against the bucket anyway
            }
        }
        detached = true;
        pipeline.fail(new IllegalStateException("replica of cell " + scope + " at epoch " + epoch + " was detached"));
        LOG.atInfo().setMessage("replica.detached").addKeyValue("scope", scope).addKeyValue("epoch", epoch)
                .addKeyValue("txid", txid).addKeyValue("reusable", clean).log();
    }

    @Override
    public ReplicaStats stats() {
        return new ReplicaStats(pipeline.bytesUploaded() + maintenance.extraBytes(), pipeline.segmentsUploaded(),
                pipeline.pendingBytes(), maintenance.snapshotsTaken());
    }

    /** Resolves when queued background work is done (for tests and benchmarks). */
    public CompletableFuture<Void> maintenanceIdle() {
        return maintenance.idle();
    }

    // ------------------------------------------------------------ pipeline listener

    @Override
    public void confirmed(CommitBatch batch, String key, int bytes) {
        maintenance.confirmed(batch, key, bytes);
    }

    @Override
    public void failed(Throwable cause) {
        maintenance.failed(cause);
        if (!detached) {
            LOG.atError().setMessage("replica.failed").addKeyValue("scope", scope).addKeyValue("epoch", epoch)
                    .addKeyValue("error", String.valueOf(cause)).log();
        }
    }

    // ------------------------------------------------------------ maintenance host

    @Override
    public CompletableFuture<SnapshotPoint> snapshotPoint() {
        return CompletableFuture.supplyAsync(() -> {
            if (detached || checkpointsPaused) {
                return null;
            }
            try {
                readNew();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            WalCheckpoint.Result r = checkpoint.truncate();
            if (!r.copiedAll()) {
                return null;
            }
            reader.checkpointed();
            pipeline.seal();
            checkpointsPaused = true;
            Position at = new Position(epoch, txid, image.checksum(), image.pages(), image.pageSize());
            return new SnapshotPoint(at, pipeline.durable());
        }, cellExecutor);
    }

    @Override
    public void resumeCheckpoints() {
        checkpointsPaused = false;
    }

    @Override
    public void checkpointSoon() {
        try {
            cellExecutor.execute(this::checkpointIfDue);
        } catch (RejectedExecutionException e) {
            // the cell is shutting down: its next attach starts from a checkpoint anyway
        }
    }

    private void checkpointIfDue() {
        if (detached || checkpointsPaused) {
            return;
        }
        try {
            long wal = reader.fileSize();
            if (wal < policy.checkpointWalBytes()) {
                return;
            }
            readNew();
            if (!pipeline.idle() && wal < policy.forceCheckpointBytes()) {
                return; // wait until what the WAL holds is durable, unless it grows too large
            }
            if (checkpoint.truncate().copiedAll()) {
                reader.checkpointed();
            }
        } catch (IOException | RuntimeException e) {
            pipeline.fail(new IllegalStateException("cell " + scope + ": checkpoint failed: " + e.getMessage(), e));
        }
    }

    @Override
    public Path dbFile() {
        return dbFile;
    }

    @Override
    public void diverged(Throwable cause) {
        LOG.atError().setMessage("replica.diverged").addKeyValue("scope", scope).addKeyValue("epoch", epoch)
                .addKeyValue("error", String.valueOf(cause)).log();
        pipeline.fail(cause);
    }
}
