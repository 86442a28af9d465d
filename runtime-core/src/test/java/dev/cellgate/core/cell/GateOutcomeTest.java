package dev.cellgate.core.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.fleet.Self;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.spi.js.OutcomeUnknownException;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.replication.CommitOutcomeUnknownException;
import dev.cellgate.core.time.Ticker;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a caller is told when the output gate fails (issue 30 item 5): a write the replicator may
 * have landed is "outcome unknown" and not retryable; a write that never left the node is a
 * retryable "did not become durable".
 */
class GateOutcomeTest extends WithCellHost {
    final ScriptedReplicator replicator = new ScriptedReplicator();

    /** The next commit fails with {@code failure}; later ones are durable at once. */
    void nextCommitFails(RuntimeException failure) {
        java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
        replicator.commit = () -> once.compareAndSet(false, true) ? CompletableFuture.failedFuture(failure)
                : CompletableFuture.completedFuture(null);
    }

    Cells cells() {
        CellsConfig cfg = new CellsConfig(dir.resolve("watch"), true, 3_600_000, OptionalInt.empty(), OptionalInt.empty(), 0, 2);
        Cells c = new Cells(vertx, cfg, new OwnershipStore(bucket, new Self("n1", "s1"), Ticker.SYSTEM), replicator,
                () -> script, Ticker.SYSTEM, Executors.newFixedThreadPool(2), () -> true, new WakeIndex(bucket));
        c.stubs(new CellRouter(c, vertx));
        return c;
    }

    @Test
    void aWriteThatMayHaveLandedIsOutcomeUnknownAndNotRetryable() throws Exception {
        Cells c = cells();
        assertThat(CellsLifecycleTest.body(c.fetch(CellsLifecycleTest.id(1), CellsLifecycleTest.get("/")))).isEqualTo("1");
        nextCommitFails(new CommitOutcomeUnknownException("segment sent, then the ownership check got no answer", null));
        Throwable e = catchThrowable(() -> c.fetch(CellsLifecycleTest.id(1), CellsLifecycleTest.get("/")).get(30, TimeUnit.SECONDS));
        assertThat(e.getCause()).isInstanceOf(OutcomeUnknownException.class).hasMessageStartingWith("outcome unknown")
                .hasMessageContaining("may have been applied").hasMessageContaining("ownership check got no answer");
        assertThat(((StubCallException) e.getCause()).retryable()).isFalse();
    }

    @Test
    void aWriteThatNeverLeftTheNodeIsRetryable() throws Exception {
        Cells c = cells();
        assertThat(CellsLifecycleTest.body(c.fetch(CellsLifecycleTest.id(2), CellsLifecycleTest.get("/")))).isEqualTo("1");
        nextCommitFails(new IllegalStateException("the pin never landed, nothing was uploaded"));
        Throwable e = catchThrowable(() -> c.fetch(CellsLifecycleTest.id(2), CellsLifecycleTest.get("/")).get(30, TimeUnit.SECONDS));
        assertThat(e.getCause()).isInstanceOf(StubCallException.class).isNotInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("did not become durable").hasMessageContaining("the pin never landed");
        assertThat(((StubCallException) e.getCause()).retryable()).isTrue();
    }
}
