package dev.cellgate.replicator.wal;

import dev.cellgate.core.spi.replication.AttachRefusedException;
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
import dev.cellgate.replicator.wal.restore.DatabaseRestorer;
import java.nio.file.Path;
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

    public WalReplicator(ReplicatorConfig config, WalPolicy policy) {
        if (config.snapshotEveryBytes() < 1) {
            throw new IllegalArgumentException("snapshotEveryBytes must be positive, got " + config.snapshotEveryBytes());
        }
        this.config = config;
        this.policy = policy;
        this.reads = new BucketReads(config.store());
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

    /** Throws {@link AttachRefusedException} when the local database cannot be proven to match the bucket. */
    @Override
    public CellReplica attach(String scope, long epoch, Path dbFile, Executor cellExecutor, OwnershipCheck ownership,
                              WalCheckpoint checkpoint) {
        AttachState st = new Attacher(reads, policy).prepare(scope, epoch, dbFile, checkpoint);
        return new WalCellReplica(scope, epoch, dbFile, cellExecutor, ownership, config, policy, st);
    }
}
