package dev.cellgate.core.spi.replication;

import java.util.concurrent.CompletableFuture;

/** Confirms after a bucket upload that this node still owns the cell at the epoch it replicates. */
@FunctionalInterface
public interface OwnershipCheck {
    /** True when still the owner; false when another node took over (the commits must fail). */
    CompletableFuture<Boolean> stillOwner();
}
