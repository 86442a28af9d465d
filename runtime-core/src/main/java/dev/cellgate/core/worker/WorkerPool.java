package dev.cellgate.core.worker;

import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.InstanceHost;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.StubChannel;
import dev.cellgate.core.spi.js.WorkerInstance;
import dev.cellgate.core.logic.LaneChoice;
import dev.cellgate.core.observe.LogContext;
import io.vertx.core.Context;
import io.vertx.core.internal.ContextInternal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stateless Worker instances, in lanes ({@link LaneChoice}): each lane is an ordered context on
 * the JavaScript threads ({@link JsThreads}) holding an instance of the current code, never an
 * event loop. A request hops from the event loop that read it to a lane, and its answer hops back;
 * a handler spinning in one lane leaves the event loops and the other lanes free, and requests
 * meanwhile go to the lanes that are not held.
 *
 * <p>A new deployment is installed atomically: new requests get instances of the new code; an old
 * instance finishes its in-flight requests (their response bodies included) and is closed when the
 * last one ends.
 */
public final class WorkerPool {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerPool.class);
    /** How long a turn runs before its lane counts as held and requests pass it by. */
    static final long HELD_AFTER_NANOS = 50_000_000L;

    private final StubChannel stubs;
    private final JsThreads threads;
    private final int maxLanes;
    private final List<Lane> lanes = new CopyOnWriteArrayList<>();
    /** Each event loop's preferred lane: requests of one loop keep meeting one warm instance. */
    private final Map<Context, Integer> preferred = new ConcurrentHashMap<>();
    private volatile LoadedScript current;

    /**
     * @param lanes    lanes opened at once (one per event loop keeps today's instance count)
     * @param maxLanes the most lanes opened when all are held by long turns
     */
    public WorkerPool(StubChannel stubs, JsThreads threads, int lanes, int maxLanes) {
        if (lanes < 1 || maxLanes < lanes) {
            throw new IllegalArgumentException("lanes " + lanes + ", max " + maxLanes + ": need 1 <= lanes <= max");
        }
        this.stubs = stubs;
        this.threads = threads;
        this.maxLanes = maxLanes;
        for (int i = 0; i < lanes; i++) {
            this.lanes.add(new Lane(threads.newContext()));
        }
        this.lanes.get(0).executor.context().owner().setPeriodic(HELD_AFTER_NANOS / 1_000_000, id -> moveFromHeldLanes());
    }

    /** Makes {@code script} the code every new request runs. */
    public void install(LoadedScript script) {
        current = script;
    }

    /**
     * Makes an instance of {@code script} in every open lane ahead of its first request (issue 22:
     * the first request otherwise pays a new context's set-up, ~1 s at start on this box). Until
     * {@link #install} makes it current, the lanes keep serving the current code; the instance made
     * here takes over at the lane's first request for {@code script}. Completes when every lane has
     * one; fails with the first lane's failure to make it.
     */
    public CompletableFuture<Void> warm(LoadedScript script) {
        List<CompletableFuture<Void>> each = new java.util.ArrayList<>();
        for (Lane lane : lanes) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            lane.executor.execute(() -> {
                try {
                    lane.warm(script, this).whenComplete((x, e) -> {
                        if (e != null) {
                            done.completeExceptionally(e);
                        } else {
                            done.complete(null);
                        }
                    });
                } catch (RuntimeException e) {
                    done.completeExceptionally(e);
                }
            });
            each.add(done);
        }
        return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new));
    }

    public LoadedScript current() {
        return current;
    }

    /** Lanes open now (for tests and diagnostics). */
    public int lanes() {
        return lanes.size();
    }

    /**
     * Runs the Worker's fetch for a request that arrived on {@code requestCtx} (its event loop picks
     * the preferred lane); any thread may call. The answer completes on the lane's thread. Fails
     * with {@link IllegalStateException} when nothing is deployed.
     */
    public CompletableFuture<HttpResponseData> fetch(Context requestCtx, HttpRequestData request) {
        if (current == null) {
            return CompletableFuture.failedFuture(new NoDeploymentException());
        }
        Lane first = laneFor(requestCtx);
        CompletableFuture<HttpResponseData> answer = new CompletableFuture<>();
        submit(first, lane -> {
            try (LogContext.Scope scope = LogContext.enter(request.requestId(), null)) {
                LoadedScript script = current;
                Slot s = lane.slotFor(script, this);
                s.inFlight++;
                CompletableFuture<HttpResponseData> f;
                try {
                    f = s.instance.fetch(request);
                } catch (RuntimeException e) {
                    f = CompletableFuture.failedFuture(e);
                }
                // The request leaves the instance when its response body has flowed out, not when the
                // headers are ready: a retired instance closed under a streaming body stalls the response.
                Runnable left = () -> lane.executor.execute(() -> {
                    s.inFlight--;
                    s.closeIfIdle();
                });
                f.whenComplete((r, e) -> {
                    if (e != null) {
                        left.run();
                        answer.completeExceptionally(e instanceof java.util.concurrent.CompletionException ce && ce.getCause() != null
                                ? ce.getCause() : e);
                    } else {
                        answer.complete(StreamedBodyEnd.watch(r, left));
                    }
                });
            }
        });
        return answer;
    }

    /**
     * Runs the Worker's {@code scheduled()} for one cron occurrence (any thread may call), in a
     * lane as requests are. Completes when the handler and its waitUntil have settled.
     */
    public CompletableFuture<Void> scheduled(String cron, long scheduledTimeMs) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        submit(laneFor(null), lane -> {
            LoadedScript script = current;
            if (script == null) {
                done.completeExceptionally(new NoDeploymentException());
                return;
            }
            Slot s = lane.slotFor(script, this);
            s.inFlight++;
            CompletableFuture<Void> f;
            try {
                f = s.instance.scheduled(cron, scheduledTimeMs);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((r, e) -> lane.executor.execute(() -> {
                s.inFlight--;
                s.closeIfIdle();
                if (e != null) {
                    done.completeExceptionally(e);
                } else {
                    done.complete(null);
                }
            }));
        });
        return done;
    }

    /**
     * Queues a request's start in {@code lane}. The start runs once: in that lane, or in another
     * one {@link #moveFromHeldLanes} moved it to. A start is in one lane's queue at a time and
     * whoever takes it out of that queue (the lane polling it, or the move removing it) owns it.
     */
    private static void submit(Lane lane, Consumer<Lane> start) {
        lane.waiting.add(start);
        lane.executor.execute(lane.startNext);
    }

    /**
     * Every {@link #HELD_AFTER_NANOS}: the starts queued behind a lane whose turn has become held
     * go to a lane that is not (LaneChoice, or a new lane). Without this a request that reached a
     * lane in the first 50 ms of a runaway's turn waited out the runaway's whole CPU budget
     * (bench/runaway: other requests' p90 1.4 s beside a stateless spin with a 2 s budget).
     * The held lane keeps one queued {@code startNext} per start it was given; those whose start
     * moved find another start or none.
     */
    private void moveFromHeldLanes() {
        long now = System.nanoTime();
        for (Lane held : lanes) {
            if (held.waiting.isEmpty() || !LaneChoice.held(held.executor.turnStartedNanos(), now, HELD_AFTER_NANOS)) {
                continue;
            }
            Consumer<Lane> s;
            while ((s = held.waiting.peek()) != null) {
                Lane to = laneFor(null);
                if (to == held || LaneChoice.held(to.executor.turnStartedNanos(), now, HELD_AFTER_NANOS)) {
                    return; // every lane is held and no more may open: the starts wait where they are
                }
                if (held.waiting.remove(s)) {
                    submit(to, s);
                }
            }
        }
    }

    /** The lane a task from {@code from} (an event loop, or null) runs in: {@link LaneChoice} decides. */
    private Lane laneFor(Context from) {
        Context loop = from instanceof ContextInternal ci ? ci.unwrap() : from;
        int want = loop == null ? 0 : preferred.computeIfAbsent(loop, k -> preferred.size());
        List<Lane> now = lanes; // only ever grows: the first n stay where they are
        int n = now.size();
        int i = LaneChoice.choose(n, k -> now.get(k).executor.turnStartedNanos(), want, System.nanoTime(), HELD_AFTER_NANOS, maxLanes);
        if (i != LaneChoice.NEW_LANE) {
            return now.get(i);
        }
        synchronized (lanes) {
            if (lanes.size() >= maxLanes) {
                return lanes.get(Math.floorMod(want, lanes.size()));
            }
            Lane opened = new Lane(threads.newContext());
            lanes.add(opened);
            LOG.atInfo().setMessage("worker.lane_opened").addKeyValue("lanes", lanes.size())
                    .addKeyValue("reason", "every lane is held by a turn longer than " + HELD_AFTER_NANOS / 1_000_000 + " ms").log();
            return opened;
        }
    }

    private InstanceHost host(Executor ex) {
        return new InstanceHost() {
            @Override
            public Executor executor() {
                return ex;
            }

            @Override
            public StubChannel stubs() {
                return stubs;
            }
        };
    }

    /** One lane: its serial executor and the instance of the current code in it (touched only on the lane). */
    private static final class Lane {
        final LaneExecutor executor;
        /** Starts queued here that no lane has begun: what {@link #moveFromHeldLanes} may move. */
        final ConcurrentLinkedQueue<Consumer<Lane>> waiting = new ConcurrentLinkedQueue<>();
        /** The lane's task for each start queued in it: runs the oldest start still queued here, if any. */
        final Runnable startNext;
        Slot slot;
        /** An instance of code not current yet, made ahead by {@link WorkerPool#warm}. */
        Slot warmed;

        Lane(Context ctx) {
            this.executor = new LaneExecutor(ctx);
            this.startNext = () -> {
                Consumer<Lane> start = waiting.poll();
                if (start != null) {
                    start.accept(this);
                }
            };
        }

        /** The instance of the current code in this lane, made on first use; the one it replaces retires. */
        Slot slotFor(LoadedScript script, WorkerPool pool) {
            if (slot == null || slot.script != script) {
                Slot old = slot;
                if (warmed != null && warmed.script == script) {
                    slot = warmed;
                    warmed = null;
                } else {
                    slot = new Slot(script, script.newWorker(pool.host(executor)), executor);
                }
                if (old != null) {
                    old.retire();
                }
            }
            return slot;
        }

        /** Makes and sets up an instance of {@code script} ahead, unless the lane has one; one made for other code retires. */
        CompletableFuture<Void> warm(LoadedScript script, WorkerPool pool) {
            if ((slot != null && slot.script == script) || (warmed != null && warmed.script == script)) {
                return CompletableFuture.completedFuture(null);
            }
            Slot stale = warmed;
            warmed = new Slot(script, script.newWorker(pool.host(executor)), executor);
            if (stale != null) {
                stale.retire();
            }
            return warmed.instance.start();
        }
    }

    /** One Worker instance in one lane; touched only on that lane's thread. */
    private static final class Slot {
        /** How often a retired instance with work still in flight looks again. */
        static final long RECHECK_MS = 1_000;

        final LoadedScript script;
        final WorkerInstance instance;
        final LaneExecutor lane;
        int inFlight;
        boolean retired;
        boolean closed;
        boolean recheckPending;

        Slot(LoadedScript script, WorkerInstance instance, LaneExecutor lane) {
            this.script = script;
            this.instance = instance;
            this.lane = lane;
        }

        void retire() {
            retired = true;
            closeIfIdle();
        }

        /**
         * Closes a retired instance once nothing runs in it: no fetch awaiting its answer and no
         * event the engine still counts (a waitUntil, a stub call's continuation). The engine's
         * count has no callback, so a busy retired instance looks again every second; closing it
         * earlier would fail the work still running in it.
         */
        void closeIfIdle() {
            if (!retired || closed || inFlight > 0) {
                return;
            }
            if (instance.eventsInFlight() > 0) {
                if (!recheckPending) {
                    recheckPending = true;
                    lane.context().owner().setTimer(RECHECK_MS, id -> lane.execute(() -> {
                        recheckPending = false;
                        closeIfIdle();
                    }));
                }
                return;
            }
            closed = true;
            try {
                instance.close();
            } catch (RuntimeException e) {
                LOG.atWarn().setMessage("worker.close_failed").addKeyValue("error", e.toString()).log();
            }
        }
    }

    /** No deployment is installed yet. */
    public static final class NoDeploymentException extends IllegalStateException {
        public NoDeploymentException() {
            super("no Worker is deployed (push one with deploy-tool push)");
        }
    }
}
