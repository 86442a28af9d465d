package dev.cellgate.core.cell;

import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.spi.replication.OwnershipCheck;
import dev.cellgate.core.spi.replication.ReplicaStats;
import dev.cellgate.core.spi.replication.Replicator;
import dev.cellgate.core.spi.replication.RestoreResult;
import dev.cellgate.core.spi.replication.WalCheckpoint;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A stand-in for the bucket round trips of replication, for tests of the cell host: a restore
 * answers what {@link #restore} says for the scope (an empty cell by default), a commit what
 * {@link #commit} says (durable at once by default). The cell host around it is the real one.
 */
final class ScriptedReplicator implements Replicator {
    volatile Function<String, CompletableFuture<RestoreResult>> restore = scope -> CompletableFuture.completedFuture(RestoreResult.empty());
    volatile Supplier<CompletableFuture<Void>> commit = () -> CompletableFuture.completedFuture(null);

    @Override
    public CompletableFuture<RestoreResult> restore(String scope, long acquiredEpoch, Path dbFile) {
        return restore.apply(scope);
    }

    @Override
    public CellReplica attach(String scope, long epoch, Path dbFile, Executor cellExecutor, OwnershipCheck ownership,
                              WalCheckpoint checkpoint) {
        return new CellReplica() {
            @Override
            public CompletableFuture<Void> committed() {
                return commit.get();
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
                return new ReplicaStats(0, 0, 0, 0);
            }
        };
    }
}
