package dev.cellgate.deploy.push;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.fleet.StoredRecord;
import dev.cellgate.core.records.CurrentDeployment;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * How a push or a rollback makes a deployment current, given the record it read. The real one is
 * {@link DeploymentStore#moveCurrent}: compare-and-swap on the version read (create-only when
 * there was none), so a concurrent writer makes it fail cleanly instead of being overwritten.
 * Tests also run a deliberately broken unconditional variant to show the checks would notice.
 */
@FunctionalInterface
public interface CurrentMove {
    CompletableFuture<WriteOutcome> move(Optional<StoredRecord<CurrentDeployment>> expected, String id, long nowMs);

    static CurrentMove compareAndSwap(DeploymentStore store) {
        return store::moveCurrent;
    }
}
