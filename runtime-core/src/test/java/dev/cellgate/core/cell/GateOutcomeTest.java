package dev.cellgate.core.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.fleet.Self;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.spi.js.OutcomeUnknownException;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.spi.replication.CommitOutcomeUnknownException;
import dev.cellgate.core.spi.replication.OwnershipCheck;
import dev.cellgate.core.spi.replication.ReplicaStats;
import dev.cellgate.core.spi.replication.Replicator;
import dev.cellgate.core.spi.replication.RestoreResult;
import dev.cellgate.core.spi.replication.WalCheckpoint;
import dev.cellgate.core.time.Ticker;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * What a caller is told when the output gate fails (issue 30 item 5): a write the replicator may
 * have landed is "outcome unknown" and not retryable; a write that never left the node is a
 * retryable "did not become durable".
 */
class GateOutcomeTest extends WithCellHost {
    /** The next commit's failure, or null for a commit that becomes durable. */
    volatile Supplier<RuntimeException> nextFailure;

    Cells cells() {
        CellsConfig cfg = new CellsConfig(dir.resolve("watch"), true, 3_600_000, OptionalInt.empty(), OptionalInt.empty(), 0, 2);
        Cells c = new Cells(vertx, cfg, new OwnershipStore(bucket, new Self("n1", "s1"), Ticker.SYSTEM), new FailingReplicator(),
                () -> script, Ticker.SYSTEM, Executors.newFixedThreadPool(2), () -> true, new WakeIndex(bucket));
        c.stubs(new CellRouter(c, vertx));
        return c;
    }

    @Test
    void aWriteThatMayHaveLandedIsOutcomeUnknownAndNotRetryable() throws Exception {
        Cells c = cells();
        assertThat(CellsLifecycleTest.body(c.fetch(CellsLifecycleTest.id(1), CellsLifecycleTest.get("/")))).isEqualTo("1");
        nextFailure = () -> new CommitOutcomeUnknownException("segment sent, then the ownership check got no answer", null);
        Throwable e = catchThrowable(() -> c.fetch(CellsLifecycleTest.id(1), CellsLifecycleTest.get("/")).get(30, TimeUnit.SECONDS));
        assertThat(e.getCause()).isInstanceOf(OutcomeUnknownException.class).hasMessageStartingWith("outcome unknown")
                .hasMessageContaining("may have been applied").hasMessageContaining("ownership check got no answer");
        assertThat(((StubCallException) e.getCause()).retryable()).isFalse();
    }

    @Test
    void aWriteThatNeverLeftTheNodeIsRetryable() throws Exception {
        Cells c = cells();
        assertThat(CellsLifecycleTest.body(c.fetch(CellsLifecycleTest.id(2), CellsLifecycleTest.get("/")))).isEqualTo("1");
        nextFailure = () -> new IllegalStateException("the pin never landed, nothing was uploaded");
        Throwable e = catchThrowable(() -> c.fetch(CellsLifecycleTest.id(2), CellsLifecycleTest.get("/")).get(30, TimeUnit.SECONDS));
        assertThat(e.getCause()).isInstanceOf(StubCallException.class).isNotInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("did not become durable").hasMessageContaining("the pin never landed");
        assertThat(((StubCallException) e.getCause()).retryable()).isTrue();
    }

    /** Commits are durable at once, except when the test scripted a failure for the next one. */
    final class FailingReplicator implements Replicator {
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
                    Supplier<RuntimeException> f = nextFailure;
                    nextFailure = null;
                    return f == null ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(f.get());
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
}
