package dev.cellgate.gateway.metrics;

import dev.cellgate.core.cell.Cells;
import dev.cellgate.core.spi.replication.ReplicaStats;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** {@link NodeStatus} read from the node's cell registry, its lease and its deployment watcher. */
public record CellsStatus(Cells cells, BooleanSupplier drainingFlag, BooleanSupplier degradedFlag, LongSupplier leaseExpiry,
                          Supplier<String> runningDeployment, IntSupplier openWebSockets) implements NodeStatus {
    @Override
    public int resident() {
        return cells.resident();
    }

    @Override
    public int occupied() {
        return cells.occupied();
    }

    @Override
    public int activating() {
        return cells.activating();
    }

    @Override
    public int restoring() {
        return cells.restoringCount();
    }

    @Override
    public int evicting() {
        return cells.evictingCount();
    }

    @Override
    public int releasing() {
        return cells.releasingCount();
    }

    @Override
    public int shedding() {
        return cells.sheddingCount();
    }

    @Override
    public int hibernated() {
        return cells.hibernatedCount();
    }

    @Override
    public int hibernatableSockets() {
        return cells.hibernatableSockets();
    }

    @Override
    public int websockets() {
        return openWebSockets.getAsInt();
    }

    @Override
    public boolean draining() {
        return drainingFlag.getAsBoolean();
    }

    @Override
    public boolean degraded() {
        return degradedFlag.getAsBoolean();
    }

    @Override
    public long leaseExpiresMs() {
        return leaseExpiry.getAsLong();
    }

    @Override
    public String deployment() {
        return runningDeployment.get();
    }

    @Override
    public ReplicaStats replication() {
        return cells.replicationTotals().snapshot();
    }
}
