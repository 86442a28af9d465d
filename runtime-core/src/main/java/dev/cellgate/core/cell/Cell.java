package dev.cellgate.core.cell;

import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.cell.storage.SqliteCellStorage;
import dev.cellgate.core.observe.LogContext;
import dev.cellgate.core.observe.RuntimeMetrics;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.CellInstance;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.core.spi.js.StorageException;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.js.WsFrame;
import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.time.Ticker;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.logic.CellLifecycle;
import dev.cellgate.core.logic.CellLifecycle.Phase;
import dev.cellgate.core.logic.WakeEntryVerdict;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One resident cell: its instance, storage, replica and output gate, all driven from its
 * executor. Events are counted in flight from delivery until their (gated) result leaves;
 * a release waits for them. A durability failure (upload failed, ownership lost) resets the
 * cell: pending results fail and the local copy, which may hold unreplicated writes, is wiped.
 *
 * <p>Where the cell is in its life is one value, {@link #life}: each state carries what exists in
 * it (the Durable Object only while serving or releasing, the drain's future only while
 * releasing), and every change goes through {@link #enter}, which refuses a move
 * {@link CellLifecycle} does not list.
 */
final class Cell {
    private static final Logger LOG = LoggerFactory.getLogger(Cell.class);

    /** The cell's state with its data; {@link #phase()} names it for {@link CellLifecycle}. */
    sealed interface Life {
        Phase phase();

        /** The deployment the cell runs or last ran (none before its first construction). */
        default LoadedScript script() {
            return null;
        }

        /** Opened and owned; the Durable Object is constructed next (activation, or the first event). */
        record Starting() implements Life {
            public Phase phase() {
                return Phase.STARTING;
            }
        }

        record Serving(CellInstance instance, LoadedScript script) implements Life {
            public Phase phase() {
                return Phase.SERVING;
            }
        }

        /** No Durable Object: the next event constructs it again ({@link Cell#wake}). */
        record Hibernated(LoadedScript script) implements Life {
            public Phase phase() {
                return Phase.HIBERNATED;
            }
        }

        /**
         * Leaving: events that started before run to their end on {@code instance} (none when the cell
         * was hibernated), then {@code drained} completes.
         */
        record Releasing(Optional<CellInstance> instance, LoadedScript script, CompletableFuture<Void> drained) implements Life {
            public Phase phase() {
                return Phase.RELEASING;
            }
        }

        record Gone() implements Life {
            public Phase phase() {
                return Phase.GONE;
            }
        }
    }

    /** What the registry learns from a cell. */
    interface Listener {
        void gone(Cell cell);

        void idle(Cell cell);

        /** {@code ctx.abort()} ended the cell's session: the registry lets it go (its next event activates it again). */
        void aborted(Cell cell, Throwable cause);

        /**
         * Whether an event may start in this cell now: not once the node lost its lease, nor in a cell
         * of a fenced session (issue 29: such a cell is being dropped and never serves again).
         */
        default boolean mayRun(Cell cell) {
            return true;
        }
    }

    final CellIdentity id;
    final String scope;
    final long epoch;
    final String ownershipVersion;
    final CellExecutor executor;
    final SqliteCellStorage storage;
    final CellReplica replica;
    final CellFiles files;
    private final OutputGate gate;
    private final FrameOutbox outbox;
    /** Hibernatable WebSockets: kept while the instance is dropped (hibernation). */
    final HostSockets sockets;
    private final Ticker ticker;
    private final Listener listener;
    private final RuntimeMetrics metrics;
    final CellAlarms alarms;

    /**
     * Written on the executor only, through {@link #enter}; volatile because the sweeper, the
     * shedder and the operator surface read it.
     */
    private volatile Life life = new Life.Starting();
    /** Set by {@code ctx.abort()} inside a turn, cleared at that turn's end (executor only). */
    private Throwable abortedBy;
    /** The deployment to construct from on wake (the current one, as for a new activation). */
    java.util.function.Supplier<LoadedScript> currentScript;
    HostForCell host;
    /** The alarm whose wake entry is known to be in the bucket (empty: none). */
    private OptionalLong indexedAlarm = OptionalLong.empty();
    /** Completes when every earlier alarm change's wake entry is written: later commits ship after it. */
    private CompletableFuture<Void> indexChain = CompletableFuture.completedFuture(null);
    private WakeIndex wakeIndex;
    /** The latest stale-entry deletion ({@link #judgeWakeEntry}); index writes of this cell wait for it. */
    private CompletableFuture<Void> entryDrops = CompletableFuture.completedFuture(null);
    /** Written on the executor only; read by the shedder from other threads. */
    volatile int inFlight;
    /**
     * Events handed to the executor but not started yet: a cell with events waiting is not idle,
     * else the sweeper could release a cell right after a slow activation, under the requests
     * queued behind it (and the shedder must not pick it meanwhile).
     */
    private final java.util.concurrent.atomic.AtomicInteger queued = new java.util.concurrent.atomic.AtomicInteger();
    volatile long lastUsedMs;
    private final CodeSwitch codeSwitch = new CodeSwitch();
    private final CellAlarms.Timers timers;

    Cell(CellIdentity id, long epoch, String ownershipVersion, CellExecutor executor, SqliteCellStorage storage,
         CellReplica replica, CellFiles files, boolean outputGate, Ticker ticker, Listener listener, CellAlarms.Timers timers,
         RuntimeMetrics metrics) {
        this.id = id;
        this.scope = id.scope();
        this.epoch = epoch;
        this.ownershipVersion = ownershipVersion;
        this.executor = executor;
        this.storage = storage;
        this.replica = replica;
        this.files = files;
        this.gate = new OutputGate(outputGate);
        this.outbox = new FrameOutbox(executor);
        this.ticker = ticker;
        this.sockets = new HostSockets(scope, executor, this::afterDurable,
                (socket, frame) -> deliver(null, i -> i.webSocketEvent(socket, frame)), ticker::nowMs);
        this.listener = listener;
        this.metrics = metrics;
        this.lastUsedMs = ticker.nowMs();
        this.timers = timers;
        this.alarms = new CellAlarms(this, timers, ticker);
        executor.afterTurn(this::endTurn);
    }

    // ------------------------------------------------------------------ the state

    /** The one place the state changes (executor only). */
    private void enter(Life next) {
        CellLifecycle.move(life.phase(), next.phase(), scope);
        life = next;
    }

    Phase phase() {
        return life.phase();
    }

    /** The deployment the cell runs (the operator surface, the switch to new code); null before it ran one. */
    LoadedScript script() {
        return life.script();
    }

    /** Whether an event may start in it now (any thread; the executor decides for good in {@link #begin}). */
    boolean takesEvents() {
        return life.phase().takesEvents();
    }

    boolean isGone() {
        return life instanceof Life.Gone;
    }

    /** The Durable Object, while one is constructed (serving, or releasing with events still running). */
    private CellInstance instanceOrNull() {
        return switch (life) {
            case Life.Serving s -> s.instance();
            case Life.Releasing r -> r.instance().orElse(null);
            case Life.Starting s -> null;
            case Life.Hibernated h -> null;
            case Life.Gone g -> null;
        };
    }

    /**
     * Activation: constructs the Durable Object on {@code script} (executor only). A failure leaves
     * the cell starting; the caller resets it.
     */
    void start(LoadedScript script) throws ScriptLoadException {
        CellInstance made = script.newCell(id.className(), id, host);
        enter(new Life.Serving(made, script));
    }

    /**
     * Runs one event; the result completes (on any thread) after the output gate opened for it.
     * A cell that is releasing or gone refuses with a retryable error: the caller resolves again.
     *
     * @param requestId the request the event serves (in the log context while it starts), or null
     */
    <T> CompletableFuture<T> deliver(String requestId, Function<CellInstance, CompletableFuture<T>> event) {
        CompletableFuture<T> out = new CompletableFuture<>();
        queued.incrementAndGet(); // busy from now, not from when the task runs: the shedder must not pick it meanwhile
        lastUsedMs = ticker.nowMs();
        executor.execute(() -> {
            if (codeSwitch.wanted() != null && heldForNewCode(() -> begin(requestId, event, out))) {
                return; // the hold starts it later
            }
            begin(requestId, event, out);
        });
        return out;
    }

    /**
     * While a move to new code is wanted: holds the event back when others run (true; it stays
     * counted as queued, so the cell stays busy), else makes the move now if it can (false).
     */
    private boolean heldForNewCode(Runnable start) {
        if (codeSwitch.holds(takesEvents() && inFlight > 0, ticker.nowMs())) {
            if (codeSwitch.hold(start)) {
                timers.schedule(codeSwitch.holdLeftMs(ticker.nowMs()) + 1, () -> executor.execute(codeSwitch::release));
            }
            return true;
        }
        switchCodeIfIdle();
        return false;
    }

    /**
     * Keeps the cell busy while {@code handOver} runs: the requests that waited for its activation
     * queue their events in there, and until they have, the shedder would see an idle cell and
     * could release it under them.
     */
    void busyWhile(Runnable handOver) {
        queued.incrementAndGet();
        try {
            handOver.run();
        } finally {
            executor.execute(this::dequeued);
        }
    }

    /** Something counted as queued left without becoming an event in flight (executor only). */
    private void dequeued() {
        queued.decrementAndGet();
        drainedIfQuiet(); // a release may have been waiting for it to clear
    }

    private void drainedIfQuiet() {
        if (life instanceof Life.Releasing r && quiet()) {
            r.drained().complete(null);
        }
    }

    /** Starts a delivered event (executor only); until then it counted as queued. */
    private <T> void begin(String requestId, Function<CellInstance, CompletableFuture<T>> event, CompletableFuture<T> out) {
        if (!takesEvents() || !listener.mayRun(this)) {
            out.completeExceptionally(new CellMovedException(scope));
            dequeued();
            return;
        }
        queued.decrementAndGet(); // and in flight at once: never quiet in between
        inFlight++;
        lastUsedMs = ticker.nowMs();
        CompletableFuture<T> f;
        try (LogContext.Scope s = LogContext.enter(requestId, null)) {
            CellInstance instance = life instanceof Life.Serving serving ? serving.instance() : wake();
            f = event.apply(instance);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        // Hop back to the executor: by then the turn that produced the result has committed,
        // so the gate's last commit covers every write the event made.
        f.whenComplete((r, e) -> executor.execute(() -> {
            long gated = System.nanoTime();
            gate.barrier(storage.dirty()).whenComplete((x, ge) -> {
                metrics.outputGateWait(System.nanoTime() - gated);
                if (ge != null) {
                    out.completeExceptionally(GateFailure.toCaller(ge));
                } else if (e != null) {
                    out.completeExceptionally(e);
                } else {
                    out.complete(r);
                }
                executor.execute(this::eventDone);
            });
        }));
    }

    private void eventDone() {
        inFlight--;
        lastUsedMs = ticker.nowMs();
        if (inFlight == 0) {
            switchCodeIfIdle();
            codeSwitch.release();
        }
        if (inFlight == 0) {
            drainedIfQuiet();
            listener.idle(this);
        }
    }

    /**
     * A WebSocket frame leaving the cell: sent once the writes made before it are durable, in
     * order (the output gate for frames). Executor only.
     */
    void afterDurable(Runnable output) {
        if (isGone()) {
            return;
        }
        outbox.add(gate.barrier(storage.dirty()), output);
    }

    /**
     * Hibernation: an idle cell whose only activity is open hibernatable WebSockets drops its
     * JavaScript instance (the memory) but keeps everything else — ownership at the same epoch,
     * the local database and its replication, the sockets, their attachments. No release happens,
     * so no other node can take the cell meanwhile: the next event is a local re-activation in the
     * same epoch ({@link #wake}), which keeps "one writer per (cell, epoch)" trivially. A cell
     * whose sockets all closed leaves through the normal idle release. Executor only.
     */
    boolean hibernate() {
        if (!(life instanceof Life.Serving serving) || !quiet() || sockets.count() == 0 || outbox.size() > 0) {
            return false;
        }
        enter(new Life.Hibernated(serving.script()));
        close(serving.instance());
        LOG.atInfo().setMessage("cell.hibernated").addKeyValue("scope", scope).addKeyValue("epoch", epoch)
                .addKeyValue("sockets", sockets.count()).log();
        return true;
    }

    boolean hibernated() {
        return life instanceof Life.Hibernated;
    }

    /**
     * Constructs the Durable Object again for an event that reached a cell without one (hibernated,
     * or still starting) and returns it (executor only).
     */
    private CellInstance wake() {
        LoadedScript next = currentScript == null ? life.script() : currentScript.get();
        if (next == null) {
            throw new StubCallException("no deployment is loaded on this node", true, null);
        }
        CellInstance made;
        try {
            made = next.newCell(id.className(), id, host);
        } catch (Exception e) {
            throw new StubCallException("Durable Object " + id.className() + " failed to start: " + e.getMessage(), false, e);
        }
        enter(new Life.Serving(made, next));
        LOG.atInfo().setMessage("cell.woke").addKeyValue("scope", scope).addKeyValue("epoch", epoch)
                .addKeyValue("sockets", sockets.count()).log();
        return made;
    }

    /**
     * The cell is leaving this node: every WebSocket closes with 1012 (service restart) so its
     * client reconnects and lands on the next owner. Gated: frames sent before go out first.
     */
    private void closeSockets() {
        String reason = "Durable Object moving to another node; reconnect";
        sockets.closeAll(WsFrame.SERVICE_RESTART, reason);
        CellInstance instance = instanceOrNull();
        if (instance != null) {
            try {
                instance.closeWebSockets(WsFrame.SERVICE_RESTART, reason);
            } catch (RuntimeException e) {
                LOG.atWarn().setMessage("cell.close_sockets_failed").addKeyValue("scope", scope).addKeyValue("error", e.toString()).log();
            }
        }
    }

    /** No event queued or running in the host, nor in the engine (waitUntil, blockConcurrencyWhile). */
    boolean quiet() {
        CellInstance instance = instanceOrNull();
        return queued.get() == 0 && inFlight == 0 && (instance == null || instance.eventsInFlight() == 0);
    }

    /** Alarms must be findable by the fleet's waker: set before the cell's first turn. */
    void wakeIndex(WakeIndex index) {
        this.wakeIndex = index;
    }

    /**
     * Turn end: commit the turn's writes, hand them to replication, re-arm the alarm if it changed.
     * An alarm change ships only after its wake entry is written ({@link WakeIndex}): a durable
     * alarm without an entry could sleep forever in a cell no node holds. Later commits queue behind
     * it; without an alarm change in flight a commit ships at once.
     */
    private void endTurn() {
        if (isGone()) {
            return;
        }
        if (abortedBy != null) {
            endAbortedTurn();
            return;
        }
        boolean committed;
        try {
            committed = storage.endTurn();
        } catch (StorageException e) {
            LOG.atError().setMessage("cell.commit_failed").addKeyValue("scope", scope).addKeyValue("error", e.getMessage()).log();
            gate.lost(e);
            reset(e);
            return;
        }
        boolean alarmChanged = storage.takeAlarmChanged();
        CompletableFuture<WakeIndex.Move> move = null;
        if (alarmChanged && wakeIndex != null) {
            OptionalLong next = storage.storedAlarm();
            OptionalLong previous = indexedAlarm;
            move = afterEntryDrops(() -> wakeIndex.moved(scope, previous, next));
            indexedAlarm = next;
        }
        if (committed) {
            CompletableFuture<Void> durable = ship(move);
            gate.committed(durable);
            long committedAt = System.nanoTime();
            durable.whenComplete((v, e) -> {
                metrics.commitDurable(e == null, System.nanoTime() - committedAt);
                if (e != null) {
                    executor.execute(() -> reset(e));
                }
            });
        }
        if (alarmChanged) {
            alarms.rearm();
        }
    }

    private CompletableFuture<Void> ship(CompletableFuture<WakeIndex.Move> move) {
        if (replica == null) {
            return move == null ? CompletableFuture.completedFuture(null) : move.thenApply(m -> null);
        }
        CompletableFuture<Void> before = indexChain;
        if (move == null && before.isDone() && !before.isCompletedExceptionally()) {
            return replica.committed(); // the common case: no alarm change waiting for its wake entry
        }
        CompletableFuture<Void> entries = move == null ? before : before.thenCombine(move, (a, m) -> null);
        indexChain = entries;
        CompletableFuture<Void> shipped = entries.thenCompose(x -> {
            CompletableFuture<Void> f = new CompletableFuture<>();
            executor.execute(() -> replica.committed().whenComplete((v, e) -> {
                if (e != null) {
                    f.completeExceptionally(e);
                } else {
                    f.complete(null);
                }
            }));
            return f;
        });
        if (move != null) {
            // The change is durable: the previous entry may go (best effort; a stale one only wakes spuriously).
            shipped.thenCompose(x -> move).thenCompose(WakeIndex.Move::durable);
        }
        return shipped;
    }

    /** Re-writes the wake entry of the stored alarm (activation, release): the index may have lost it. */
    CompletableFuture<Void> reindexAlarm() {
        if (wakeIndex == null) {
            return CompletableFuture.completedFuture(null);
        }
        OptionalLong stored = storage.storedAlarm();
        indexedAlarm = stored;
        return stored.isEmpty() ? CompletableFuture.completedFuture(null)
                : afterEntryDrops(() -> wakeIndex.moved(scope, OptionalLong.empty(), stored)).thenApply(m -> null);
    }

    /**
     * The waker's question about a due wake entry of this cell (executor only). The entry stays while
     * the stored alarm falls in its minute; otherwise it is stale (an alarm elsewhere has its own
     * entry, written before it became durable) and is deleted, but only once the last commit is
     * durable (the stored alarm read here is then the durable one) and in order with this cell's
     * index writes: an alarm set meanwhile in the same minute writes the same key, and that write
     * waits for the delete ({@link #afterEntryDrops}), so it is never deleted by it. And only while
     * this copy is still the owner's ({@code stillOwned}, checked after the last commit): a copy a
     * peer took over without this node noticing yet must not judge the new owner's entry (the
     * simulator, seed 4685: a superseded copy deleted the entry of an alarm whose owner then died,
     * and the alarm never fired). A superseded copy is dropped and the wake fails, so the waker
     * looks again later and the next wake activates the cell wherever it now belongs.
     */
    CompletableFuture<WakeEntryVerdict.Reply> judgeWakeEntry(long entryMinuteMs, WakeEntryVerdict verdict,
                                                           java.util.function.Supplier<CompletableFuture<Boolean>> stillOwned) {
        if (wakeIndex == null || verdict.forStoredAlarm(entryMinuteMs, storage.storedAlarm()) == WakeEntryVerdict.Action.KEEP) {
            return CompletableFuture.completedFuture(WakeEntryVerdict.Reply.KEPT);
        }
        if (!verdict.dropsInOrder()) {
            return wakeIndex.drop(scope, entryMinuteMs).thenApply(x -> WakeEntryVerdict.Reply.DROPPED); // a broken variant
        }
        CompletableFuture<Void> durable = gate.lastCommit();
        CompletableFuture<Void> drop = entryDrops.handle((x, e) -> null).thenCompose(x -> durable)
                .thenCompose(x -> verdict.confirmsOwnership() ? stillOwned.get() : CompletableFuture.completedFuture(true))
                .thenCompose(owned -> {
                    if (!owned) {
                        StaleCopyException stale = new StaleCopyException(scope, epoch);
                        executor.execute(() -> reset(stale));
                        return CompletableFuture.failedFuture(stale);
                    }
                    return wakeIndex.drop(scope, entryMinuteMs);
                });
        entryDrops = drop;
        return drop.thenApply(x -> WakeEntryVerdict.Reply.DROPPED);
    }

    /** Runs an index write after this cell's pending entry deletions (executor only). */
    private <T> CompletableFuture<T> afterEntryDrops(java.util.function.Supplier<CompletableFuture<T>> write) {
        CompletableFuture<Void> pending = entryDrops;
        return pending.isDone() ? write.get() : pending.handle((x, e) -> null).thenCompose(x -> write.get());
    }

    /** Waits for events in flight, then flushes: everything committed is durable. Executor only. */
    CompletableFuture<Void> drainAndFlush() {
        if (isGone()) {
            // Reset meanwhile (a durability failure, a fence): nothing is left to flush.
            return CompletableFuture.failedFuture(new CellMovedException(scope));
        }
        if (!(life instanceof Life.Releasing)) {
            closeSockets();
            enter(new Life.Releasing(Optional.ofNullable(instanceOrNull()), life.script(), new CompletableFuture<>()));
            drainedIfQuiet();
        }
        Life.Releasing releasing = (Life.Releasing) life;
        return releasing.drained().thenCompose(x -> gate.lastCommit())
                .thenCompose(x -> replica == null ? CompletableFuture.completedFuture(null) : replica.flush());
    }

    /** The replica checkpoints through the cell's own connection, so it detaches while that is still open. */
    private void detachThenCloseStorage() {
        if (replica != null) {
            replica.detach();
        }
        storage.close();
    }

    /** Closes instance and storage after a clean flush (executor only). */
    void closeAfterFlush() {
        if (isGone()) {
            return; // reset after the flush: that closed everything already
        }
        alarms.cancel();
        CellInstance instance = instanceOrNull();
        enter(new Life.Gone());
        close(instance);
        detachThenCloseStorage();
        listener.gone(this);
    }

    /**
     * {@code ctx.abort()} in the running turn (executor only): that turn's end throws its writes away
     * instead of committing them, then the registry releases the cell ({@link Listener#aborted}).
     */
    void abort(Throwable cause) {
        if (abortedBy == null) {
            abortedBy = cause;
        }
    }

    /**
     * The end of the turn that called {@code ctx.abort()}: its writes are rolled back (an alarm it set
     * goes with them). Only that turn's: events the fresh instance runs before the release lands commit
     * as usual, and the release makes them durable.
     */
    private void endAbortedTurn() {
        Throwable cause = abortedBy;
        abortedBy = null;
        storage.abortTurn();
        storage.takeAlarmChanged();
        LOG.atInfo().setMessage("cell.aborted").addKeyValue("scope", scope).addKeyValue("epoch", epoch)
                .addKeyValue("reason", Errors.rootMessage(cause)).log();
        listener.aborted(this, cause);
    }

    /** Drops the cell after a durability failure or fencing: results fail, local files go (executor only). */
    void reset(Throwable cause) {
        reset(cause, "Durable Object reset; reconnect", false);
    }

    /**
     * As {@link #reset(Throwable)}, telling WebSocket clients {@code closeReason} with 1012 (service
     * restart). A {@code fenced} cell (the node lost its lease) closes every socket that way, the instance's
     * own included, with the fence's reason: a client sees why it must reconnect.
     */
    void reset(Throwable cause, String closeReason, boolean fenced) {
        Life before = life;
        if (before instanceof Life.Gone) {
            return;
        }
        CellInstance instance = instanceOrNull();
        LOG.atWarn().setMessage("cell.reset").addKeyValue("scope", scope).addKeyValue("epoch", epoch)
                .addKeyValue("cause", Errors.rootMessage(cause)).log();
        enter(new Life.Gone());
        alarms.cancel();
        gate.lost(cause);
        // The writes behind queued frames are lost: tell clients to reconnect now, ungated.
        sockets.abort(WsFrame.SERVICE_RESTART, closeReason);
        if (fenced && instance != null) {
            try {
                instance.closeWebSockets(WsFrame.SERVICE_RESTART, closeReason); // the instance's own (non-hibernatable) sockets too
            } catch (RuntimeException e) {
                LOG.atWarn().setMessage("cell.close_sockets_failed").addKeyValue("scope", scope).addKeyValue("error", e.toString()).log();
            }
        }
        close(instance);
        detachThenCloseStorage();
        try {
            files.wipe();
        } catch (java.io.IOException e) {
            LOG.atWarn().setMessage("cell.wipe_failed").addKeyValue("scope", scope).addKeyValue("error", e.toString()).log();
        }
        if (before instanceof Life.Releasing r) {
            r.drained().completeExceptionally(cause);
        }
        codeSwitch.done();
        codeSwitch.release(); // they find the cell gone and resolve again
        listener.gone(this);
    }

    /**
     * A new deployment is current: the cell moves to it, keeping its storage, as soon as no event
     * runs ({@link CodeSwitch}). A hibernated cell needs nothing: it wakes on the current code.
     * Executor only.
     */
    void moveTo(LoadedScript next) {
        if (!(life instanceof Life.Serving serving) || serving.script() == next) {
            return;
        }
        codeSwitch.want(next, ticker.nowMs());
        switchCodeIfIdle();
    }

    private void switchCodeIfIdle() {
        LoadedScript next = codeSwitch.wanted();
        if (next == null) {
            return;
        }
        if (!(life instanceof Life.Serving serving) || serving.script() == next) {
            codeSwitch.done();
            return;
        }
        if (inFlight > 0 || serving.instance().eventsInFlight() > 0) {
            return;
        }
        long waitedMs = codeSwitch.wantedForMs(ticker.nowMs());
        codeSwitch.done();
        try {
            // Without a Durable Object in between, as when hibernated: a failed construction resets from there.
            enter(new Life.Hibernated(next));
            close(serving.instance());
            long constructing = System.nanoTime();
            enter(new Life.Serving(next.newCell(id.className(), id, host), next));
            LOG.atInfo().setMessage("cell.restarted").addKeyValue("scope", scope).addKeyValue("deployment",
                    next.bundle().deploymentId()).addKeyValue("waited_ms", waitedMs)
                    .addKeyValue("construct_ms", (System.nanoTime() - constructing) / 1_000_000).log();
        } catch (Exception e) {
            LOG.atError().setMessage("cell.restart_failed").addKeyValue("scope", scope).addKeyValue("error", e.toString()).log();
            reset(e);
        }
    }

    /** Closes a Durable Object the state no longer holds (null: there was none). */
    private void close(CellInstance instance) {
        if (instance != null) {
            try {
                instance.close();
            } catch (RuntimeException e) {
                LOG.atWarn().setMessage("cell.close_failed").addKeyValue("scope", scope).addKeyValue("error", e.toString()).log();
            }
        }
    }

    /** The cell stopped being resident here while the event was on its way: resolve again. */
    static final class CellMovedException extends StubCallException {
        CellMovedException(String scope) {
            super("cell " + scope + " is no longer active on this node", true, null);
        }
    }

    /** This copy of the cell is no longer the owner's: a peer took it over at a later epoch. */
    static final class StaleCopyException extends IllegalStateException {
        StaleCopyException(String scope, long epoch) {
            super("cell " + scope + " at epoch " + epoch + " is no longer owned here (taken over by a peer): dropped, the wake is retried");
        }
    }
}
