package dev.cellgate.core.cell;

import dev.cellgate.core.async.AsyncLimiter;
import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.logic.WakeEntryVerdict;
import dev.cellgate.core.observe.CellEvents;
import dev.cellgate.core.observe.LogContext;
import dev.cellgate.core.observe.ReplicationTotals;
import dev.cellgate.core.observe.ResidentCell;
import dev.cellgate.core.observe.RuntimeMetrics;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.js.StubChannel;
import dev.cellgate.core.spi.replication.Replicator;
import dev.cellgate.core.time.Ticker;
import dev.cellgate.core.worker.JsThreads;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cells resident on this node: resolves a cell (activating it at most once at a time),
 * delivers events, releases cells (eviction, shutdown handoff) and keeps the counters the drain
 * loop and {@code /state} read. A scope's activation and release never overlap: a request that
 * arrives while its cell is being released waits for the release, then activates it again.
 */
public final class Cells implements CellActivation.CellsContext, Cell.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(Cells.class);
    static final long SWEEP_MS = 1000;

    private final JsThreads jsThreads;
    private final Vertx vertx;
    private final CellsConfig config;
    private final OwnershipStore ownership;
    private final Replicator replicator;
    private final Supplier<LoadedScript> script;
    private final Ticker ticker;
    private final Executor io;
    private final BooleanSupplier leaseValid;
    private final CellActivation activation = new CellActivation(this);
    private final AsyncLimiter activations;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final OwnerHints owners = new OwnerHints();
    private final AtomicInteger activating = new AtomicInteger();
    private final AtomicInteger releasing = new AtomicInteger();
    private final AtomicInteger restoring = new AtomicInteger();
    private final AtomicInteger evicting = new AtomicInteger();
    private final WakeIndex wakeIndex;
    private volatile WakeEntryVerdict wakeVerdict = WakeEntryVerdict.CORRECT;
    private final AtomicInteger shedding = new AtomicInteger();
    private final ReplicationTotals replication = new ReplicationTotals();
    private volatile RuntimeMetrics metrics = RuntimeMetrics.NOOP;
    private volatile CellEvents events = CellEvents.NONE;
    private volatile StubChannel stubs;
    private volatile boolean acceptingWork = true;
    /**
     * The deliberately broken variant (tests only): an activation past its deadline carries on and
     * its cell is installed although the request that needed it already failed.
     */
    volatile boolean brokenInstallsLateCells;
    /** Fences of the node so far; an activation that began before the latest one never becomes resident. */
    private volatile int fences;
    private final Object fenceLock = new Object();
    /** Cells of a fenced session, until they are gone: no event starts in them again. */
    private final java.util.Set<Cell> fenced = ConcurrentHashMap.newKeySet();

    /**
     * One scope's slot: the activation (or active cell), the release when one runs, and the late
     * work of an activation abandoned at its deadline while it winds down.
     */
    private static final class Entry {
        final CompletableFuture<Cell> cell;
        final int fence;
        volatile CompletableFuture<Void> leaving;
        /** Set when its activation was abandoned at the deadline; {@link #windingDown} completes when its late work is done. */
        volatile boolean abandoned;
        final CompletableFuture<Void> windingDown = new CompletableFuture<>();
        /**
         * Completes once the activation has settled and its entry is gone or resident. Its waiters
         * ({@link #cell}) may be refused earlier, when the node fences while it runs.
         */
        final CompletableFuture<Void> settled = new CompletableFuture<>();

        Entry(CompletableFuture<Cell> cell, int fence) {
            this.cell = cell;
            this.fence = fence;
        }
    }

    /** With a JavaScript pool of the default size, as tests make them. */
    public Cells(Vertx vertx, CellsConfig config, OwnershipStore ownership, Replicator replicator, Supplier<LoadedScript> script,
                 Ticker ticker, Executor io, BooleanSupplier leaseValid, WakeIndex wakeIndex) {
        this(vertx, new JsThreads(vertx, JsThreads.defaultSize(Runtime.getRuntime().availableProcessors()), 30_000L), config,
                ownership, replicator, script, ticker, io, leaseValid, wakeIndex);
    }

    /** @param jsThreads where each cell's JavaScript and SQLite work runs, one ordered context per cell */
    public Cells(Vertx vertx, JsThreads jsThreads, CellsConfig config, OwnershipStore ownership, Replicator replicator,
                 Supplier<LoadedScript> script, Ticker ticker, Executor io, BooleanSupplier leaseValid, WakeIndex wakeIndex) {
        this.jsThreads = jsThreads;
        this.wakeIndex = wakeIndex;
        this.vertx = vertx;
        this.config = config;
        this.ownership = ownership;
        this.replicator = replicator;
        this.script = script;
        this.ticker = ticker;
        this.io = io;
        this.leaseValid = leaseValid;
        this.activations = new AsyncLimiter(config.activations());
    }

    /** Starts the once-a-second sweep: idle eviction, memory shedding, moving cells to new code. */
    public void startSweeper() {
        vertx.setPeriodic(SWEEP_MS, id -> sweep());
    }

    void sweep() {
        if (!acceptingWork) {
            return;
        }
        long now = ticker.nowMs();
        Shedder.evictIdle(this, now);
        if (Pressure.pressured(config.maxRssMb())) {
            Shedder.shedIdle(this, dev.cellgate.core.logic.Shedding.pressureShedCount(resident()));
        }
        moveToCurrentCode();
    }

    /**
     * Moves every resident cell to the current deployment, each between its events. Called when
     * a deployment is installed, and by the sweep for cells a move could not reach yet (an event
     * ran too long, or the cell was still activating on the old code).
     */
    public void moveToCurrentCode() {
        LoadedScript current = script.get();
        if (current == null) {
            return;
        }
        for (Cell c : residentCells()) {
            if (c.script() != current && !c.hibernated()) {
                c.executor.execute(() -> c.moveTo(current));
            }
        }
    }

    /** Installs the node's metrics (before it serves; the default reports nothing). */
    public void metrics(RuntimeMetrics m) {
        this.metrics = m == null ? RuntimeMetrics.NOOP : m;
    }

    /** True when this node should not take new cells (for its lease load and for placement). */
    public boolean full() {
        return Admission.full(this);
    }

    /** The channel cells' own stub calls go through (set once the router exists). */
    public void stubs(StubChannel channel) {
        this.stubs = channel;
    }

    // ------------------------------------------------------------------ events

    public CompletableFuture<HttpResponseData> fetch(CellIdentity id, HttpRequestData req) {
        try (LogContext.Scope s = LogContext.enter(req.requestId(), id.scope())) {
            CellEvents.Event ev = events.start(req.requestId(), id, "fetch", warm(id.scope()));
            return ended(ev, withCell(id, c -> c.deliver(req.requestId(), i -> i.fetch(req)), true));
        }
    }

    public CompletableFuture<byte[]> call(CellIdentity id, String method, byte[] args) {
        try (LogContext.Scope s = LogContext.enter(null, id.scope())) {
            CellEvents.Event ev = events.start(null, id, "call", warm(id.scope()));
            return ended(ev, withCell(id, c -> c.deliver(null, i -> i.call(method, args)), true));
        }
    }

    /** Installs what watches cell events (tracing); {@link CellEvents#NONE} by default. */
    public void events(CellEvents e) {
        this.events = e == null ? CellEvents.NONE : e;
    }

    /** Whether the scope's cell is active here now (no activation to run or wait for). */
    private boolean warm(String scope) {
        Entry e = entries.get(scope);
        return e != null && e.cell.isDone() && !e.cell.isCompletedExceptionally();
    }

    private static <T> CompletableFuture<T> ended(CellEvents.Event ev, CompletableFuture<T> f) {
        if (ev == CellEvents.NO_EVENT) {
            return f;
        }
        f.whenComplete((v, e) -> ev.end(e == null ? null : Errors.unwrap(e)));
        return f;
    }

    private <T> CompletableFuture<T> withCell(CellIdentity id, Function<Cell, CompletableFuture<T>> op, boolean retry) {
        return resolve(id).thenCompose(op).exceptionallyCompose(e -> {
            Throwable c = Errors.unwrap(e);
            if (retry && c instanceof Cell.CellMovedException) {
                return withCell(id, op, false); // released or reset under us: resolve once more
            }
            return CompletableFuture.failedFuture(c);
        });
    }

    /** The resident cell, activating it when needed. */
    public CompletableFuture<Cell> resolve(CellIdentity id) {
        if (!acceptingWork) {
            return CompletableFuture.failedFuture(new DrainingException());
        }
        // Read before the lease check: the lease stops being valid before a fence is counted, so an
        // activation that passes the check under a lease that is fenced meanwhile is dropped on completion.
        int fence = fenceCount();
        if (!leaseValid.getAsBoolean()) {
            return CompletableFuture.failedFuture(new StubCallException("this node does not serve cells now (its lease is not held: starting, lapsed or stopped); retry", true, null));
        }
        String scope = id.scope();
        Entry e = entries.get(scope);
        if (e != null && e.abandoned && !e.windingDown.isDone()) {
            // Never a second activation of one scope on this node while the first still touches its files.
            return CompletableFuture.failedFuture(new StubCallException("cell " + scope + ": an earlier activation ran past"
                    + " CELLD_ACTIVATION_DEADLINE_MS and is still giving the cell back; retry", true, null));
        }
        if (e == null) {
            String owner = owners.owner(scope, ticker.nowMs());
            if (owner != null) {
                return CompletableFuture.failedFuture(new OwnedElsewhereException(scope, owner));
            }
            Entry fresh = new Entry(new CompletableFuture<>(), fence);
            e = entries.putIfAbsent(scope, fresh);
            if (e == null) {
                e = fresh;
                startActivation(id, fresh);
            }
        }
        CompletableFuture<Void> leaving = e.leaving;
        if (leaving != null) {
            return leaving.handle((v, x) -> null).thenCompose(x -> resolve(id));
        }
        if (e.fence != fence && !e.settled.isDone()) {
            // an activation of a fenced session: it never becomes resident; wait for it to go, then activate anew
            return e.settled.thenCompose(x -> resolve(id));
        }
        return e.cell;
    }

    private void startActivation(CellIdentity id, Entry entry) {
        activating.incrementAndGet();
        long t0 = System.nanoTime();
        // The request that caused the activation (from the log context): its lines name it.
        String cause = org.slf4j.MDC.get(LogContext.REQUEST_ID);
        CompletableFuture<Cell> f;
        try {
            Admission.check(this);
            f = activations.run(() -> bounded(id.scope(), entry, cause, attempt -> activation.activate(id, cause, attempt)));
        } catch (RuntimeException ex) {
            f = CompletableFuture.failedFuture(ex);
        }
        f.whenComplete((cell, err) -> {
            activating.decrementAndGet();
            metrics.activation(err == null ? RuntimeMetrics.Activation.ACTIVATED
                    : Errors.unwrap(err) instanceof OwnedElsewhereException ? RuntimeMetrics.Activation.OWNED_ELSEWHERE
                    : RuntimeMetrics.Activation.FAILED, System.nanoTime() - t0);
            if (err != null) {
                if (Errors.unwrap(err) instanceof OwnedElsewhereException o) {
                    owners.remember(id.scope(), o.node(), ticker.nowMs());
                }
                if (!(Errors.unwrap(err) instanceof ActivationDeadlineException)) {
                    entries.remove(id.scope(), entry); // past the deadline the entry stays until the late work is done
                }
                entry.cell.completeExceptionally(Errors.unwrap(err));
                entry.settled.complete(null);
                return;
            }
            synchronized (fenceLock) {
                if (entry.fence == fences) {
                    owners.forget(id.scope());
                    cell.busyWhile(() -> entry.cell.complete(cell));
                    entry.settled.complete(null);
                    return;
                }
            }
            // The node fenced while this activation ran: the cell is of a dead session and never serves.
            // Its slot is freed only once its files are wiped: a new activation of the scope waits for it.
            fenced.add(cell);
            NodeFencedException fencedNow = new NodeFencedException("the node lost its lease while " + id.scope() + " was activating");
            cell.executor.execute(() -> {
                try {
                    cell.reset(fencedNow, FENCED_CLOSE_REASON, true);
                } finally {
                    entries.remove(id.scope(), entry);
                    entry.cell.completeExceptionally(fencedNow);
                    entry.settled.complete(null);
                }
            });
        });
    }

    /**
     * The activation, or the deadline's error when that comes first: then the activation's slot
     * (the limiter's permit) is free at once, and its late work winds down on its own — a restore
     * in flight is cancelled, and every later step gives the cell back instead of installing it.
     * The scope's entry stays (requests fail fast, retryable) until that is done, and counts as
     * releasing for the drain.
     */
    private CompletableFuture<Cell> bounded(String scope, Entry entry, String cause,
                                            java.util.function.Function<ActivationAttempt, CompletableFuture<Cell>> activate) {
        boolean broken = brokenInstallsLateCells;
        ActivationAttempt attempt = new ActivationAttempt(scope, !broken);
        CompletableFuture<Cell> out = new CompletableFuture<>();
        long deadlineMs = config.activationDeadlineMs();
        long started = ticker.nowMs();
        long timer = vertx.setTimer(deadlineMs, t -> {
            // Marked before the abandon: the late work may end at once, and it reads these.
            entry.abandoned = true;
            releasing.incrementAndGet();
            if (!attempt.abandon()) {
                entry.abandoned = false; // it finished first
                releasing.decrementAndGet();
                return;
            }
            LogContext.run(cause, scope, () -> LOG.atWarn().setMessage("cell.activation_deadline").addKeyValue("deadline_ms", deadlineMs)
                    .addKeyValue("stage", attempt.stage()).log());
            out.completeExceptionally(new ActivationDeadlineException(scope, deadlineMs, attempt.stage()));
            attempt.stopWaiting();
        });
        CompletableFuture<Cell> work;
        try {
            work = activate.apply(attempt);
        } catch (RuntimeException e) {
            work = CompletableFuture.failedFuture(e);
        }
        work.whenComplete((cell, err) -> {
            if (attempt.finish()) {
                vertx.cancelTimer(timer);
                if (err != null) {
                    out.completeExceptionally(err);
                } else {
                    out.complete(cell);
                }
                return;
            }
            if (cell != null && broken) {
                entries.replace(scope, entry, new Entry(CompletableFuture.completedFuture(cell), entry.fence));
                woundDown(scope, entry, started, "installed the late cell (broken variant)");
            } else if (cell != null) {
                releaseLate(scope, entry, cell, started);
            } else {
                entries.remove(scope, entry);
                woundDown(scope, entry, started, "gave the cell back: " + Errors.rootMessage(err));
            }
        });
        return out;
    }

    /**
     * An abandoned activation built its cell after all: released at once (final flush, ownership
     * back), never served for the request that already failed. Requests arriving meanwhile wait for
     * that release, as for any release, then activate the cell again.
     */
    private void releaseLate(String scope, Entry abandoned, Cell cell, long started) {
        Entry late = new Entry(CompletableFuture.completedFuture(cell), abandoned.fence);
        entries.replace(scope, abandoned, late);
        release(scope, "its activation finished past CELLD_ACTIVATION_DEADLINE_MS").whenComplete((ok, e) ->
                woundDown(scope, abandoned, started, Boolean.TRUE.equals(ok) ? "released the late cell" : "the late cell's release failed"));
    }

    private void woundDown(String scope, Entry abandoned, long started, String outcome) {
        releasing.decrementAndGet();
        LOG.atInfo().setMessage("cell.activation_wound_down").addKeyValue("scope", scope).addKeyValue("outcome", outcome)
                .addKeyValue("ms", ticker.nowMs() - started).log();
        abandoned.windingDown.complete(null);
    }

    private int fenceCount() {
        return fences; // written under fenceLock
    }

    /** What a WebSocket client of a fenced cell is told with 1012 (service restart). */
    static final String FENCED_CLOSE_REASON = "node lost its lease; Durable Object unavailable here, reconnect";

    /**
     * The node lost its lease and keeps running (issue 29): every cell stops at once and for good,
     * without a bucket call — events refused, unfinished results failed (the write behind one may
     * or may not have landed), WebSockets closed with 1012 and {@link #FENCED_CLOSE_REASON}, local
     * files wiped, so a later activation restores from the bucket with the normal ownership and epoch
     * checks, never from this copy. Activations under way are dropped when they finish. Completes
     * when no cell that was resident can run any more; the node must not rejoin before.
     */
    public CompletableFuture<Void> fence(String why) {
        List<CompletableFuture<Void>> stopped = new ArrayList<>();
        NodeFencedException cause = new NodeFencedException(why);
        synchronized (fenceLock) {
            fences++;
            for (java.util.Map.Entry<String, Entry> e : entries.entrySet()) {
                Entry en = e.getValue();
                if (en.fence >= fences || en.cell.isCompletedExceptionally()) {
                    continue;
                }
                if (!en.cell.isDone()) {
                    // An activation under way: dropped when it completes, its slot held until then. Its
                    // waiters are refused now (retryable), not after its bucket calls, which a stalled
                    // bucket can hold until the activation deadline.
                    en.cell.completeExceptionally(cause);
                    continue;
                }
                Cell c = en.cell.join();
                if (brokenFenceKeepsCells) {
                    continue; // BROKEN variant: the cell stays resident
                }
                fenced.add(c);
                CompletableFuture<Void> done = new CompletableFuture<>();
                if (en.leaving == null) {
                    en.leaving = done; // a request for the scope waits until the files are wiped, then activates anew
                }
                c.executor.execute(() -> {
                    try {
                        c.reset(cause, FENCED_CLOSE_REASON, true); // a release under way finishes on its own
                    } finally {
                        if (en.leaving == done) {
                            entries.remove(e.getKey(), en);
                        }
                        done.complete(null);
                    }
                });
                stopped.add(done);
            }
        }
        LOG.atWarn().setMessage("cells.fenced").addKeyValue("cells", stopped.size()).addKeyValue("cause", why).log();
        return CompletableFuture.allOf(stopped.toArray(CompletableFuture[]::new));
    }

    /** BROKEN ON PURPOSE when set (tests only): {@link #fence} leaves resident cells as they are. */
    volatile boolean brokenFenceKeepsCells;

    @Override
    public boolean mayRun(Cell cell) {
        return leaseValid.getAsBoolean() && !fenced.contains(cell);
    }

    /** A forwarded call for {@code scope} was refused or could not reach the owner: resolve from the bucket next time. */
    void forgetOwner(String scope) {
        owners.forget(scope);
    }

    /** Owner hints held (for tests). */
    int ownerHints() {
        return owners.size();
    }

    // ------------------------------------------------------------------ release

    /** Releases one cell: waits for its events, flushes, closes, gives ownership back. */
    /**
     * An operator's point-in-time restore ({@code deploy-tool cells restore}): records the request in
     * the cell as {@code storage.onNextSessionRestoreBookmark} would (activating it here if needed),
     * releases it, and activates it again, which carries the restore out. Completes with the bookmark
     * that undoes it.
     */
    public CompletableFuture<String> restoreTo(CellIdentity id, String bookmark) {
        return resolve(id).thenCompose(cell -> cell.host.restoreOnNextSession(bookmark))
                .thenCompose(undo -> release(id.scope(), "point-in-time restore to " + bookmark)
                        .thenCompose(released -> resolve(id)).thenApply(again -> undo));
    }

    public CompletableFuture<Boolean> release(String scope, String why) {
        return releaseReporting(scope, why).thenApply(Released::released);
    }

    /**
     * What a release did: whether ownership was given back, and the cell's stored alarm as it left
     * (read after the final flush, so it is the durable one). A stopping node hands a cell whose
     * alarm comes due soon to a peer ({@code HandoffAlarms}).
     */
    /** @param name the name the cell's id was derived from, when known (the next owner's {@code ctx.id.name}) */
    public record Released(boolean released, OptionalLong storedAlarmMs, String name) {
    }

    /** {@link #release}, saying what alarm the cell left with. */
    public CompletableFuture<Released> releaseReporting(String scope, String why) {
        Entry e = entries.get(scope);
        if (e == null || !e.cell.isDone() || e.cell.isCompletedExceptionally() || e.leaving != null) {
            return CompletableFuture.completedFuture(new Released(false, OptionalLong.empty(), null));
        }
        Cell cell = e.cell.join();
        CompletableFuture<Void> leaving = new CompletableFuture<>();
        e.leaving = leaving;
        releasing.incrementAndGet();
        long t0 = ticker.nowMs();
        long n0 = System.nanoTime();
        CompletableFuture<Released> result = new CompletableFuture<>();
        cell.executor.execute(() -> withAlarmIndexed(cell, cell.drainAndFlush()).whenComplete((x, err) -> cell.executor.execute(() -> {
            if (err != null) {
                cell.reset(err);
                finishRelease(scope, e, leaving, result, false, OptionalLong.empty(), t0, n0, cell,
                        "flush failed: " + Errors.rootMessage(err));
                return;
            }
            OptionalLong alarm = cell.storage.storedAlarm(); // flushed: what the next owner finds
            cell.closeAfterFlush();
            ownership.release(scope, cell.epoch, cell.ownershipVersion).whenComplete((ok, rerr) -> {
                boolean released = rerr == null && Boolean.TRUE.equals(ok);
                if (released) {
                    try {
                        cell.files.markReleased(cell.epoch);
                    } catch (java.io.IOException io) {
                        LOG.atWarn().setMessage("cell.mark_failed").addKeyValue("scope", scope).addKeyValue("error", io.toString()).log();
                    }
                }
                finishRelease(scope, e, leaving, result, released, alarm, t0, n0, cell,
                        rerr != null ? Errors.rootMessage(rerr) : released ? why : "ownership had moved");
            });
        })));
        return result;
    }

    private void finishRelease(String scope, Entry e, CompletableFuture<Void> leaving, CompletableFuture<Released> result,
                               boolean released, OptionalLong alarm, long t0, long n0, Cell cell, String detail) {
        entries.remove(scope, e);
        releasing.decrementAndGet();
        metrics.release(released, System.nanoTime() - n0);
        if (released) {
            LOG.atInfo().setMessage("cell.released").addKeyValue("scope", scope).addKeyValue("epoch", cell.epoch)
                    .addKeyValue("ms", ticker.nowMs() - t0).addKeyValue("why", detail).log();
        } else {
            LOG.atWarn().setMessage("cell.release_failed").addKeyValue("scope", scope).addKeyValue("epoch", cell.epoch)
                    .addKeyValue("error", detail).log();
        }
        leaving.complete(null);
        result.complete(new Released(released, alarm, cell.id.name()));
    }

    /**
     * A cell about to leave this node keeps a wake entry for its alarm, so the waker finds it once
     * no node holds it. Called on the cell's executor; an index failure fails the release (the cell
     * stays until the next attempt rather than leaving with an alarm nobody would fire).
     */
    private static CompletableFuture<Void> withAlarmIndexed(Cell cell, CompletableFuture<Void> flushed) {
        CompletableFuture<Void> indexed = cell.reindexAlarm();
        return flushed.thenCombine(indexed, (a, b) -> null);
    }

    /** Stops accepting new cells and events (shutdown). */
    public void stopAcceptingWork() {
        acceptingWork = false;
    }

    /**
     * Preserve shutdown: closes one resident cell cleanly without giving up ownership, so the
     * next process of this node resumes it from the local copy (no restore from the bucket).
     */
    public CompletableFuture<Boolean> preserve(String scope) {
        Entry e = entries.get(scope);
        if (e == null || !e.cell.isDone() || e.cell.isCompletedExceptionally() || e.leaving != null) {
            return CompletableFuture.completedFuture(false);
        }
        Cell cell = e.cell.join();
        CompletableFuture<Void> leaving = new CompletableFuture<>();
        e.leaving = leaving;
        evicting.incrementAndGet();
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        cell.executor.execute(() -> withAlarmIndexed(cell, cell.drainAndFlush()).whenComplete((x, err) -> cell.executor.execute(() -> {
            boolean kept = false;
            if (err == null) {
                cell.closeAfterFlush();
                try {
                    cell.files.markReleased(cell.epoch);
                    kept = true;
                } catch (java.io.IOException io) {
                    LOG.atWarn().setMessage("cell.mark_failed").addKeyValue("scope", scope).addKeyValue("error", io.toString()).log();
                }
            } else {
                cell.reset(err);
            }
            entries.remove(scope, e);
            evicting.decrementAndGet();
            LOG.atInfo().setMessage("cell.preserved").addKeyValue("scope", scope).addKeyValue("epoch", cell.epoch)
                    .addKeyValue("kept", kept).log();
            leaving.complete(null);
            result.complete(kept);
        })));
        return result;
    }

    /** Scopes of cells that are fully resident (not activating, not leaving). */
    public List<String> residentScopes() {
        List<String> out = new ArrayList<>();
        entries.forEach((s, e) -> {
            if (e.cell.isDone() && !e.cell.isCompletedExceptionally() && e.leaving == null) {
                out.add(s);
            }
        });
        return out;
    }

    /** The resident cells for the operator surface, most recently used first. */
    public List<ResidentCell> residentInfo() {
        List<ResidentCell> out = new ArrayList<>();
        for (Cell c : residentCells()) {
            LoadedScript s = c.script();
            out.add(new ResidentCell(c.scope, c.epoch, c.lastUsedMs, s == null ? null : s.bundle().deploymentId(), c.id.name()));
        }
        out.sort(java.util.Comparator.comparingLong(ResidentCell::lastUsedMs).reversed().thenComparing(ResidentCell::scope));
        return out;
    }

    List<Cell> residentCells() {
        List<Cell> out = new ArrayList<>();
        entries.forEach((s, e) -> {
            if (e.cell.isDone() && !e.cell.isCompletedExceptionally() && e.leaving == null) {
                out.add(e.cell.join());
            }
        });
        return out;
    }

    // ------------------------------------------------------------------ counters

    public int resident() {
        return residentScopes().size();
    }

    public int activating() {
        return activating.get();
    }

    public int releasingCount() {
        return releasing.get();
    }

    /** Cells this node holds and has not started to release: activating or resident. */
    public int occupied() {
        int n = 0;
        for (Entry e : entries.values()) {
            if (e.leaving == null) {
                n++;
            }
        }
        return n;
    }

    /** Resident cells that dropped their instance and keep only their WebSockets (hibernation). */
    public int hibernatedCount() {
        int n = 0;
        for (Cell c : residentCells()) {
            if (c.hibernated()) {
                n++;
            }
        }
        return n;
    }

    /** Open hibernatable WebSockets of the cells resident here. */
    public int hibernatableSockets() {
        int n = 0;
        for (Cell c : residentCells()) {
            n += c.sockets.count();
        }
        return n;
    }

    public int restoringCount() {
        return restoring.get();
    }

    public int evictingCount() {
        return evicting.get();
    }

    AtomicInteger evictingCounter() {
        return evicting;
    }

    /** Releases in flight because of pressure (the resident limit or memory): a subset of evicting. */
    public int sheddingCount() {
        return shedding.get();
    }

    AtomicInteger sheddingCounter() {
        return shedding;
    }

    /** Replication counters of every replica this node attached since it started. */
    public ReplicationTotals replicationTotals() {
        return replication;
    }

    public int activationPeak() {
        return activations.peak();
    }

    // ------------------------------------------------------------------ listener

    @Override
    public void gone(Cell cell) {
        fenced.remove(cell);
        replication.detached(cell.replica);
        Entry e = entries.get(cell.scope);
        if (e != null && e.leaving == null && e.cell.isDone() && !e.cell.isCompletedExceptionally() && e.cell.join() == cell) {
            entries.remove(cell.scope, e); // reset (not a release): drop it now
        }
    }

    /** {@code ctx.abort()}: the session ends here; the next event for the scope activates it afresh. */
    @Override
    public void aborted(Cell cell, Throwable cause) {
        release(cell.scope, "ctx.abort(): " + Errors.rootMessage(cause));
    }

    @Override
    public void idle(Cell cell) {
        // Eviction is decided by the sweeper (LRU, idle time); nothing to do per event.
    }

    // ------------------------------------------------------------------ context for activations

    @Override
    public Vertx vertx() {
        return vertx;
    }

    @Override
    public JsThreads jsThreads() {
        return jsThreads;
    }

    @Override
    public CellsConfig config() {
        return config;
    }

    @Override
    public OwnershipStore ownership() {
        return ownership;
    }

    @Override
    public Replicator replicator() {
        return replicator;
    }

    @Override
    public StubChannel stubs() {
        return stubs;
    }

    @Override
    public LoadedScript script() {
        return script.get();
    }

    @Override
    public Ticker ticker() {
        return ticker;
    }

    @Override
    public Executor io() {
        return io;
    }

    @Override
    public Cell.Listener listener() {
        return this;
    }

    @Override
    public CellAlarms.Timers timers() {
        return new CellAlarms.Timers() {
            @Override
            public long schedule(long delayMs, Runnable task) {
                return vertx.setTimer(delayMs, id -> task.run());
            }

            @Override
            public void cancel(long id) {
                vertx.cancelTimer(id);
            }
        };
    }

    @Override
    public AtomicInteger restoring() {
        return restoring;
    }

    @Override
    public WakeIndex wakeIndex() {
        return wakeIndex;
    }

    /**
     * The waker's request for a due wake entry: make the cell resident here (activation arms its
     * alarm) or, if it is, re-arm it now; then judge the entry of {@code entryMinuteMs} against the
     * cell's stored alarm ({@link Cell#judgeWakeEntry}). A class the running deployment does not
     * have answers {@link WakeEntryVerdict.Reply#NO_CLASS} without an activation (which could only
     * fail). Completes when armed and judged, not when the alarm ran.
     */
    public CompletableFuture<WakeEntryVerdict.Reply> wake(CellIdentity id, OptionalLong entryMinuteMs) {
        LoadedScript s = script.get();
        if (s != null && !s.exportedClasses().contains(id.className()) && !entries.containsKey(id.scope())) {
            return CompletableFuture.completedFuture(WakeEntryVerdict.Reply.NO_CLASS);
        }
        // A wake comes because the owner may have gone (a handoff, a crash, a restart): a hint naming
        // that owner would send it back there, so this resolution reads the bucket.
        owners.forget(id.scope());
        return resolve(id).thenCompose(cell -> {
            CompletableFuture<WakeEntryVerdict.Reply> judged = new CompletableFuture<>();
            cell.executor.execute(() -> {
                try {
                    cell.alarms.rearm();
                    CompletableFuture<WakeEntryVerdict.Reply> j = entryMinuteMs.isEmpty()
                            ? CompletableFuture.completedFuture(WakeEntryVerdict.Reply.KEPT)
                            : cell.judgeWakeEntry(entryMinuteMs.getAsLong(), wakeVerdict,
                                    () -> ownership.confirm(cell.scope, cell.epoch, cell.ownershipVersion));
                    j.whenComplete((r, e) -> {
                        if (e != null) {
                            judged.completeExceptionally(e);
                        } else {
                            judged.complete(r);
                        }
                    });
                } catch (RuntimeException e) {
                    judged.completeExceptionally(e);
                }
            });
            return judged;
        });
    }

    /** Test-only: a broken variant of the wake-entry decision, which a test must catch. */
    void wakeVerdict(WakeEntryVerdict v) {
        this.wakeVerdict = v;
    }

    @Override
    public RuntimeMetrics metrics() {
        return metrics;
    }
}
