package dev.cellgate.replicator.wal;

import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.spi.replication.ReplicaStats;
import java.util.concurrent.CompletableFuture;

/**
 * The deliberately broken variant of the output gate: it still uploads, but acknowledges every
 * commit at once, before the upload. The crash test must catch it losing acknowledged writes.
 */
final class EarlyAckReplica implements CellReplica {
    private final CellReplica real;

    EarlyAckReplica(CellReplica real) {
        this.real = real;
    }

    @Override
    public CompletableFuture<Void> committed() {
        real.committed();
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> flush() {
        real.flush();
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void detach() {
        real.detach();
    }

    @Override
    public ReplicaStats stats() {
        return real.stats();
    }
}
