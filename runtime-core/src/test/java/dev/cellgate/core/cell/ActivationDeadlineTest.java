package dev.cellgate.core.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.fleet.Self;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.records.OwnershipRecord;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.replication.RestoreResult;
import dev.cellgate.core.time.Ticker;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An activation has an overall deadline (issue 30 item 7): past it the request fails retryably
 * and the slot serves other cells, the restore in flight is cancelled, and the late work installs
 * nothing and gives the cell back (released in own.json), also when its cell was built late.
 */
class ActivationDeadlineTest extends WithCellHost {
    static final long DEADLINE_MS = 400;
    /** Long enough for the steps before the constructor on a loaded machine: the deadline falls inside the constructor. */
    static final long CONSTRUCT_DEADLINE_MS = 5000;
    final ScriptedReplicator restores = new ScriptedReplicator();
    /** Restores of these scopes never answer (a hung bucket); they are kept to see them cancelled. */
    final java.util.Set<String> hungScopes = java.util.concurrent.ConcurrentHashMap.newKeySet();
    final List<CompletableFuture<RestoreResult>> held = new CopyOnWriteArrayList<>();

    {
        restores.restore = scope -> {
            if (!hungScopes.contains(scope)) {
                return CompletableFuture.completedFuture(RestoreResult.empty());
            }
            CompletableFuture<RestoreResult> f = new CompletableFuture<>();
            held.add(f);
            return f;
        };
    }

    Cells cells(long deadlineMs) {
        CellsConfig cfg = new CellsConfig(dir.resolve("watch"), true, 3_600_000, OptionalInt.empty(), OptionalInt.empty(), 0, 1,
                deadlineMs);
        Cells c = new Cells(vertx, cfg, new OwnershipStore(bucket, new Self("n1", "s1"), Ticker.SYSTEM), restores, () -> script,
                Ticker.SYSTEM, Executors.newFixedThreadPool(2), () -> true, new WakeIndex(bucket));
        c.stubs(new CellRouter(c, vertx));
        return c;
    }

    @Test
    void aHungRestoreFailsAtTheDeadlineFreesTheSlotAndGivesTheCellBack() throws Exception {
        Cells c = cells(DEADLINE_MS);
        CellIdentity hung = CellsLifecycleTest.id(1);
        hungScopes.add(hung.scope());
        long t0 = System.nanoTime();
        Throwable e = catchThrowable(() -> c.fetch(hung, CellsLifecycleTest.get("/")).get(30, TimeUnit.SECONDS));
        long ms = (System.nanoTime() - t0) / 1_000_000;

        assertThat(e.getCause()).isInstanceOf(StubCallException.class).hasMessageContaining("CELLD_ACTIVATION_DEADLINE_MS")
                .hasMessageContaining("restore");
        assertThat(((StubCallException) e.getCause()).retryable()).isTrue();
        assertThat(ms).as("answered after the deadline, and soon").isBetween(DEADLINE_MS - 50, DEADLINE_MS + 1500);
        // One activation slot: another cell activates while the hung restore is still held.
        assertThat(CellsLifecycleTest.body(c.fetch(CellsLifecycleTest.id(2), CellsLifecycleTest.get("/")))).isEqualTo("1");
        assertThat(held.getFirst().isCancelled()).as("the hung restore was cancelled").isTrue();

        CellsLifecycleTest.eventually(() -> c.releasingCount() == 0, "the late work wound down");
        assertThat(ownerOf(hung)).as("released, not half-acquired").isEmpty();
        assertThat(c.residentScopes()).doesNotContain(hung.scope());
        hungScopes.remove(hung.scope());
        assertThat(CellsLifecycleTest.body(c.fetch(hung, CellsLifecycleTest.get("/")))).as("the next activation works").isEqualTo("1");
    }

    @Test
    void aCellBuiltAfterTheDeadlineIsReleasedNotServed() throws Exception {
        Cells c = cells(CONSTRUCT_DEADLINE_MS);
        CellIdentity slow = CellsLifecycleTest.id(3);
        script.constructGate = new java.util.concurrent.CountDownLatch(1); // the constructor runs until the deadline passed
        Throwable e = catchThrowable(() -> c.fetch(slow, CellsLifecycleTest.get("/")).get(30, TimeUnit.SECONDS));
        script.constructGate.countDown();
        assertThat(e.getCause()).hasMessageContaining("CELLD_ACTIVATION_DEADLINE_MS").hasMessageContaining("construct");
        CellsLifecycleTest.eventually(() -> c.releasingCount() == 0, "the late cell was released");
        assertThat(c.residentScopes()).as("installed for nobody").doesNotContain(slow.scope());
        assertThat(ownerOf(slow)).as("released").isEmpty();
    }

    /** The broken variant: late work carries on and its cell is installed. The checks above catch it. */
    @Test
    void theBrokenVariantInstallsTheLateCellAndIsCaught() throws Exception {
        Cells c = cells(CONSTRUCT_DEADLINE_MS);
        c.brokenInstallsLateCells = true;
        CellIdentity slow = CellsLifecycleTest.id(4);
        script.constructGate = new java.util.concurrent.CountDownLatch(1);
        Throwable e = catchThrowable(() -> c.fetch(slow, CellsLifecycleTest.get("/")).get(30, TimeUnit.SECONDS));
        script.constructGate.countDown();
        assertThat(e.getCause()).hasMessageContaining("CELLD_ACTIVATION_DEADLINE_MS");
        CellsLifecycleTest.eventually(() -> c.releasingCount() == 0, "the late work ended");
        assertThat(c.residentScopes()).as("the broken variant installs the late cell").contains(slow.scope());
        assertThat(ownerOf(slow)).as("and keeps it owned").isEqualTo("n1");
    }

    private String ownerOf(CellIdentity id) {
        return bucket.get("cells/" + id.scope() + "/own.json").join()
                .map(o -> OwnershipRecord.decode(o.bytes()).node()).orElse("(none)");
    }
}
