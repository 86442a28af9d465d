package dev.cellgate.js.graal.support;

import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.spi.replication.OwnershipCheck;
import dev.cellgate.core.spi.replication.ReplicaStats;
import dev.cellgate.core.spi.replication.Replicator;
import dev.cellgate.core.spi.replication.RestoreResult;
import dev.cellgate.core.spi.replication.WalCheckpoint;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;

/**
 * A replicator whose uploads complete only when the test says so: every commit stays "not yet
 * durable" until {@link #releaseAll()}, so a test can watch what the output gate holds back. It
 * stands in for the bucket round trip only; the cell host around it is the real one.
 */
public final class HeldReplicator implements Replicator {
    private final List<CompletableFuture<Void>> pending = new CopyOnWriteArrayList<>();
    private volatile boolean holding = true;

    /** Commits made so far that are not durable yet. */
    public int pendingCommits() {
        return (int) pending.stream().filter(f -> !f.isDone()).count();
    }

    /** Makes every commit so far durable. */
    public void releaseAll() {
        pending.forEach(f -> f.complete(null));
    }

    /** From now on every commit is durable at once (the test is over: let releases finish). */
    public void stopHolding() {
        holding = false;
        releaseAll();
    }

    @Override
    public CompletableFuture<RestoreResult> restore(String scope, long acquiredEpoch, Path dbFile) {
        return CompletableFuture.completedFuture(RestoreResult.empty());
    }

    @Override
    public CellReplica attach(String scope, long epoch, Path dbFile, Executor cellExecutor, OwnershipCheck ownership,
                              WalCheckpoint checkpoint) {
        return new CellReplica() {
            @Override
            public CompletableFuture<Void> committed() {
                CompletableFuture<Void> f = new CompletableFuture<>();
                if (!holding) {
                    f.complete(null);
                }
                pending.add(f);
                return f;
            }

            @Override
            public CompletableFuture<Void> flush() {
                return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new));
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
