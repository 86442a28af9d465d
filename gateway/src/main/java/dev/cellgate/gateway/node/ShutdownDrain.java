package dev.cellgate.gateway.node;

import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.cell.Cells;
import dev.cellgate.core.logic.DrainCondition;
import dev.cellgate.core.logic.DrainCondition.Mode;
import dev.cellgate.core.logic.HandoffAlarms;
import dev.cellgate.core.time.Monotonic;
import dev.cellgate.core.time.Scheduler;
import dev.cellgate.core.time.Ticker;
import dev.cellgate.gateway.http.PeerTraffic;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The graceful stop (SPEC §10, seeds 000/003/004). Handoff: every resident cell is released —
 * final durable flush, then the ownership CAS to {@code node:""} — on a Vert.x worker pool of
 * {@code CELLD_RELEASES} threads, so at most that many releases are in flight and a node with
 * thousands of cells cannot flood the bucket. Preserve: cells are closed cleanly and keep their
 * ownership for this node's next process. The drain loop polls the core counters and ends the
 * moment the work is done, or at {@code CELLD_SHUTDOWN_DRAIN_MS} whatever is left. Then, within
 * the same deadline, the internal listener lingers until peers have stopped routing here
 * ({@link DrainCondition#listenerMayClose}).
 *
 * <p>A released cell whose alarm comes due soon is handed to a live peer ({@link HandoffAlarms}):
 * the peer is asked to make it resident (the waker's own wake-up), which arms the alarm there, so it
 * fires on time rather than at a waker scan a tick or more later. A poke counts as unfinished work
 * until it is answered, within the drain's deadline; a failed one is logged and left to the waker.
 *
 * <p>Warm handoff ({@code CELLD_HANDOFF_WARM_MS}, 5 s by default): every other released cell is
 * poked the same way, so the peer restores and constructs it while this node drains, and the cell's
 * next request finds it resident there instead of paying the activation (bench/RESULTS.md section
 * H). As many pokes are in flight as releases ({@code CELLD_RELEASES}; the peer's own activation
 * limit queues the rest). Once the cells are drained the stop waits for their answers for at most
 * that budget ({@link DrainCondition#warmPokesMayStop}), and never past the drain's deadline; what is
 * not sent or answered by then is dropped, and the cell is activated by its next request, as
 * without the setting. The peer's activation is the ordinary one (ownership CAS, restore), so a
 * request that reaches the cell first through another node is served there and the poke finds the
 * cell already owned.
 */
final class ShutdownDrain {
    private static final Logger LOG = LoggerFactory.getLogger(ShutdownDrain.class);
    static final long POLL_MS = 20;

    private final Vertx vertx;
    private final Cells cells;
    private final int releases;
    private final long deadlineMs;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger unfinished = new AtomicInteger();
    private final Clocks clocks;
    private final DrainCondition.Exit exit;
    private final AtomicInteger peak = new AtomicInteger();
    private final AtomicInteger released = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();

    private final java.util.function.IntSupplier publicInFlight;
    private final PeerTraffic peers;
    /** When the cells were done (ms since t0), or -1 while they are not. */
    private long drainedAtMs = -1;
    /** Scopes handed to the release pool (each once). */
    private final java.util.Set<String> submitted = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private WorkerExecutor pool;
    private final HandoffPoke poke;
    private final long wakerTickMs;
    private final HandoffAlarms handoffAlarms;
    private final AtomicInteger poked = new AtomicInteger();
    private final long warmMs;
    private final AtomicInteger warmPending = new AtomicInteger();
    private final dev.cellgate.core.async.AsyncLimiter warmPokes;
    private final AtomicInteger warmed = new AtomicInteger();
    private final AtomicInteger warmFailed = new AtomicInteger();
    private volatile boolean over;
    private volatile long t0;

    /**
     * Asks a live peer to make the cell resident (and so arm its alarm); completes when a peer did.
     * {@code name} is what the cell's id was derived from, when known, so the peer's instance has it.
     */
    @FunctionalInterface
    interface HandoffPoke {
        CompletableFuture<Void> poke(String scope, String name);
    }

    /**
     * The drain's clocks (SPEC §20, injected so a test or simulator drives them): {@code wall} to compare
     * with a cell's stored alarm, {@code mono} for the deadline and every elapsed time (a wall clock
     * stepped by NTP must not stretch or cut a drain), {@code poller} for the poll, on its own thread:
     * event loops busy with JavaScript must not delay the deadline.
     */
    record Clocks(Ticker wall, Monotonic mono, Scheduler poller) {
        static Clocks system() {
            return new Clocks(Ticker.SYSTEM, Monotonic.SYSTEM, Scheduler.system("shutdown-drain"));
        }
    }

    /** The node's drain: system clocks, SPEC §10's exit rule, alarms handed over. */
    ShutdownDrain(Vertx vertx, Cells cells, int releases, long deadlineMs, java.util.function.IntSupplier publicInFlight,
                  PeerTraffic peers, HandoffPoke poke, long wakerTickMs, long warmMs) {
        this(vertx, cells, releases, deadlineMs, publicInFlight, peers, poke, wakerTickMs, warmMs, Clocks.system(),
                DrainCondition.Exit.AS_SPECIFIED, HandoffAlarms.CORRECT);
    }

    /**
     * @param warmMs        {@code CELLD_HANDOFF_WARM_MS} (0: off): poke a peer for every released cell, not only those with
     *                      an alarm due, and wait for the answers at most this long after the cells drained
     * @param exit          {@link DrainCondition.Exit#AS_SPECIFIED}, or the broken variant a test must catch
     * @param handoffAlarms {@link HandoffAlarms#CORRECT}, or the broken variant a test must catch
     */
    ShutdownDrain(Vertx vertx, Cells cells, int releases, long deadlineMs, java.util.function.IntSupplier publicInFlight,
                  PeerTraffic peers, HandoffPoke poke, long wakerTickMs, long warmMs, Clocks clocks, DrainCondition.Exit exit,
                  HandoffAlarms handoffAlarms) {
        this.clocks = clocks;
        this.exit = exit;
        this.warmMs = warmMs;
        this.warmPokes = new dev.cellgate.core.async.AsyncLimiter(Math.max(1, releases));
        this.poke = poke;
        this.wakerTickMs = wakerTickMs;
        this.handoffAlarms = handoffAlarms;
        this.publicInFlight = publicInFlight;
        this.peers = peers;
        this.vertx = vertx;
        this.cells = cells;
        this.releases = releases;
        this.deadlineMs = deadlineMs;
    }

    /**
     * Releases (or preserves) every resident cell; completes when drained or at the deadline.
     *
     * @param t0 when the stop was requested, on {@link Clocks#mono}: the deadline counts from there
     */
    CompletableFuture<Result> run(Mode mode, long t0) {
        CompletableFuture<Result> done = new CompletableFuture<>();
        this.t0 = t0;
        pool = vertx.createSharedWorkerExecutor("cell-releases", releases);
        submitResident(mode);
        poll(mode, t0, done); // an idle node finds nothing to release and exits at once
        return done.whenComplete((r, e) -> pool.close());
    }

    /**
     * Hands every resident cell not handed yet to the release pool. Called again on every poll:
     * a cell whose activation was under way when the drain began becomes resident later, and
     * without this it would sit there until the deadline (seen in RollingRestartIT: two cells
     * activated 2 s after SIGTERM stayed, and their callers failed against a draining owner).
     */
    private void submitResident(Mode mode) {
        // Polled every 20 ms: sort only when a cell not handed yet is there (after the first pass, rarely).
        if (submitted.containsAll(cells.residentScopes())) {
            return;
        }
        // most recently used first: with warm handoff, the cells likeliest to be asked for next are warmed first
        for (String scope : cells.residentInfo().stream().map(dev.cellgate.core.observe.ResidentCell::scope).toList()) {
            if (!submitted.add(scope)) {
                continue;
            }
            unfinished.incrementAndGet();
            pool.executeBlocking(() -> {
                int now = inFlight.incrementAndGet();
                peak.accumulateAndGet(now, Math::max);
                try {
                    boolean ok;
                    if (mode == Mode.HANDOFF) {
                        Cells.Released r = cells.releaseReporting(scope, "handoff").join();
                        ok = r.released();
                        if (!handAlarm(scope, r) && warmMs > 0 && ok) {
                            warmPoke(scope, r.name());
                        }
                    } else {
                        ok = cells.preserve(scope).join();
                    }
                    (ok ? released : failed).incrementAndGet();
                } catch (RuntimeException e) {
                    failed.incrementAndGet();
                } finally {
                    inFlight.decrementAndGet();
                    unfinished.decrementAndGet();
                }
                return null;
            }, false);
        }
    }

    /**
     * A released cell with an alarm due within the handoff window goes to a peer, within what is left
     * of the drain. Never fails the release: a poke that fails or runs out of time is logged, and the
     * cell's wake entry is still there for the waker.
     */
    /** @return whether a poke for the alarm was sent (then no warm poke is needed) */
    private boolean handAlarm(String scope, Cells.Released r) {
        long now = clocks.wall().nowMs();
        long sentMono = clocks.mono().elapsedMs();
        HandoffAlarms.Decision d = handoffAlarms.decide(r.released(), r.storedAlarmMs(), now, wakerTickMs);
        if (d != HandoffAlarms.Decision.POKE) {
            if (d == HandoffAlarms.Decision.LEFT_TO_WAKER) {
                LOG.atInfo().setMessage("handoff.alarm_left").addKeyValue("scope", scope)
                        .addKeyValue("alarm_in_ms", r.storedAlarmMs().getAsLong() - now).addKeyValue("why", d.why()).log();
            }
            return false;
        }
        java.util.OptionalLong budget = HandoffAlarms.pokeBudgetMs(sentMono - t0, deadlineMs);
        if (budget.isEmpty()) {
            LOG.atWarn().setMessage("handoff.alarm_not_poked").addKeyValue("scope", scope)
                    .addKeyValue("why", "no drain time left; the waker arms it").log();
            return false;
        }
        unfinished.incrementAndGet();
        CompletableFuture<Void> sent;
        try {
            sent = poke.poke(scope, r.name());
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        sent.orTimeout(budget.getAsLong(), java.util.concurrent.TimeUnit.MILLISECONDS).whenComplete((x, e) -> {
            if (e == null) {
                poked.incrementAndGet();
                LOG.atInfo().setMessage("handoff.alarm_poked").addKeyValue("scope", scope)
                        .addKeyValue("alarm_in_ms", r.storedAlarmMs().getAsLong() - clocks.wall().nowMs())
                        .addKeyValue("ms", clocks.mono().elapsedMs() - sentMono).log();
            } else {
                LOG.atWarn().setMessage("handoff.alarm_poke_failed").addKeyValue("scope", scope)
                        .addKeyValue("error", drainFailure(e)).addKeyValue("next", "the waker arms it").log();
            }
            unfinished.decrementAndGet();
        });
        return true;
    }

    /**
     * Warm handoff: a peer activates the released cell now. Best effort within the stop: a poke not
     * sent or not answered when the stop goes on is dropped, and a failure is only counted (the cell
     * is activated by its next request instead, as it would be without warm handoff).
     */
    private void warmPoke(String scope, String name) {
        warmPending.incrementAndGet();
        warmPokes.run(() -> {
            java.util.OptionalLong budget = HandoffAlarms.pokeBudgetMs(clocks.mono().elapsedMs() - t0, deadlineMs);
            if (over || budget.isEmpty()) {
                return CompletableFuture.completedFuture((Void) null);
            }
            CompletableFuture<Void> sent;
            try {
                sent = poke.poke(scope, name);
            } catch (RuntimeException e) {
                sent = CompletableFuture.failedFuture(e);
            }
            return sent.orTimeout(budget.getAsLong(), java.util.concurrent.TimeUnit.MILLISECONDS).handle((x, e) -> {
                if (e == null) {
                    warmed.incrementAndGet();
                } else if (warmFailed.getAndIncrement() == 0) {
                    // one line, not one per cell: a fleet with no live peer would otherwise log every release
                    LOG.atWarn().setMessage("handoff.warm_failed").addKeyValue("scope", scope).addKeyValue("error", drainFailure(e))
                            .addKeyValue("next", "released cells are activated by their next request").log();
                }
                return (Void) null;
            });
        }).whenComplete((x, e) -> warmPending.decrementAndGet());
    }

    private void poll(Mode mode, long t0, CompletableFuture<Result> done) {
        submitResident(mode);
        long elapsed = clocks.mono().elapsedMs() - t0;
        if (drainedAtMs < 0 && exit.drained(mode, new DrainCondition.Counters(cells.occupied(), cells.releasingCount(),
                cells.activating(), cells.evictingCount(), publicInFlight.getAsInt(), unfinished.get()))) {
            drainedAtMs = elapsed;
        }
        boolean finished = drainedAtMs >= 0
                && DrainCondition.listenerMayClose(peers.inFlight(), peers.quietMs(), elapsed - drainedAtMs)
                && DrainCondition.warmPokesMayStop(warmPending.get(), elapsed - drainedAtMs, warmMs);
        if (finished || elapsed >= deadlineMs) {
            if (!finished) {
                LOG.atWarn().setMessage("shutdown.deadline").addKeyValue("occupied", cells.occupied())
                        .addKeyValue("releasing", cells.releasingCount()).addKeyValue("public_in_flight", publicInFlight.getAsInt())
                        .addKeyValue("peer_in_flight", peers.inFlight())
                        .addKeyValue("unfinished_releases", unfinished.get()).addKeyValue("ms", elapsed).log();
            }
            over = true;
            boolean cellsDone = drainedAtMs >= 0;
            done.complete(new Result(released.get(), failed.get() + (cellsDone ? 0 : cells.occupied()), elapsed, peak.get(), cellsDone,
                    cellsDone ? elapsed - drainedAtMs : 0));
            return;
        }
        clocks.poller().after(POLL_MS, () -> poll(mode, t0, done));
    }

    /** Concurrent releases right now and the most seen (instrumentation for the bound). */
    int inFlight() {
        return inFlight.get();
    }

    int peak() {
        return peak.get();
    }

    /** Released cells a peer took for their alarm. */
    int poked() {
        return poked.get();
    }

    /** Released cells a peer activated for warm handoff (answered so far), and the pokes that failed. */
    int warmed() {
        return warmed.get();
    }

    int warmFailed() {
        return warmFailed.get();
    }

    /** {@code complete}: the cells drained before the deadline; {@code lingerMs}: how long peers were still answered after. */
    record Result(int released, int failed, long ms, int peakConcurrentReleases, boolean complete, long lingerMs) {
    }

    /** A drain step that did not answer in time says so; any other failure by its root cause. */
    private static String drainFailure(Throwable e) {
        Throwable root = Errors.root(e);
        return root instanceof java.util.concurrent.TimeoutException ? "no answer within the drain's time" : Errors.rootMessage(root);
    }
}
