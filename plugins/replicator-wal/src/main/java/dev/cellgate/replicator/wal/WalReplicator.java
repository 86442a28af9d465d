package dev.cellgate.replicator.wal;

import dev.cellgate.core.logic.Bookmark;
import dev.cellgate.core.logic.PitrHistory;
import dev.cellgate.core.spi.replication.AttachRefusedException;
import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.spi.replication.OwnershipCheck;
import dev.cellgate.core.spi.replication.Replicator;
import dev.cellgate.core.spi.replication.ReplicatorConfig;
import dev.cellgate.core.spi.replication.RestoreResult;
import dev.cellgate.core.spi.replication.WalCheckpoint;
import dev.cellgate.replicator.wal.bucket.BucketReads;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.replica.AttachState;
import dev.cellgate.replicator.wal.replica.WalCellReplica;
import dev.cellgate.replicator.wal.restore.CommitHistory;
import dev.cellgate.replicator.wal.restore.DatabaseRestorer;
import dev.cellgate.replicator.wal.restore.LineageResolver;
import dev.cellgate.replicator.wal.restore.Retention;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The {@code wal} replicator: ships committed WAL frames of each cell database to the bucket as
 * segments under the cell's epoch prefix, compacts and snapshots them, and restores a database
 * from them. The format and the protocol are described in the module's README.md.
 */
public final class WalReplicator implements Replicator {
    private final ReplicatorConfig config;
    private final WalPolicy policy;
    private final BucketReads reads;
    private final Retention retention;

    public WalReplicator(ReplicatorConfig config, WalPolicy policy) {
        if (config.snapshotEveryBytes() < 1) {
            throw new IllegalArgumentException("snapshotEveryBytes must be positive, got " + config.snapshotEveryBytes());
        }
        this.config = config;
        this.policy = policy;
        this.reads = new BucketReads(config.store());
        this.retention = new Retention(config.pitrRetentionMs(), config.clock());
    }

    @Override
    public CompletableFuture<RestoreResult> restore(String scope, long acquiredEpoch, Path dbFile) {
        try {
            return new DatabaseRestorer(new LineageKeys(scope), reads, config.ioExecutor(), policy.parallelism(), policy.pins())
                    .restore(acquiredEpoch, dbFile);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<RestoreResult> restoreTo(String scope, long acquiredEpoch, Path dbFile, Bookmark target) {
        try {
            refuseOutright(scope, target);
            return new DatabaseRestorer(new LineageKeys(scope), reads, config.ioExecutor(), policy.parallelism(), policy.pins())
                    .restoreTo(acquiredEpoch, dbFile, target.epoch(), target.txid());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<Void> checkRestorable(String scope, Bookmark target) {
        try {
            refuseOutright(scope, target);
            return new LineageResolver(new LineageKeys(scope), reads, policy.pins()).resolveAt(target.epoch(), target.txid())
                    .thenApply(planned -> null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** What no listing can make restorable: outside the window (or retention off), the empty state. */
    private void refuseOutright(String scope, Bookmark target) {
        Optional<String> outside = PitrHistory.outsideWindow(target, retention.windowStartMs());
        if (outside.isPresent()) {
            throw new RestoreException("cell " + scope + ": cannot restore: " + outside.get());
        }
        if (target.isEmpty()) {
            throw new RestoreException("cell " + scope + ": cannot restore bookmark " + target.encode()
                    + ": it names the state before the first write, which is not supported (storage.deleteAll() empties the cell)");
        }
    }

    @Override
    public CompletableFuture<Bookmark> bookmarkForTime(String scope, long timeMs) {
        try {
            LineageKeys keys = new LineageKeys(scope);
            long windowStart = retention.windowStartMs();
            return reads.listAll(keys.root()).thenApply(listed ->
                    PitrHistory.stateAt(CommitHistory.of(keys, listed), timeMs, windowStart, scope));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Throws {@link AttachRefusedException} when the local database cannot be proven to match the bucket. */
    @Override
    public CellReplica attach(String scope, long epoch, Path dbFile, Executor cellExecutor, OwnershipCheck ownership,
                              WalCheckpoint checkpoint) {
        AttachState st = new Attacher(reads, policy).prepare(scope, epoch, dbFile, checkpoint);
        return new WalCellReplica(scope, epoch, dbFile, cellExecutor, ownership, config, policy, st);
    }
}
