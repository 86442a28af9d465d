package dev.cellgate.core.worker;

import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.InstanceHost;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.StubChannel;
import dev.cellgate.core.spi.js.WorkerInstance;
import io.vertx.core.Context;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stateless Worker instances, one per event-loop context and deployment. A new deployment is
 * installed atomically: new requests get instances of the new code; an old instance finishes
 * its in-flight requests (their response bodies included) and is closed when the last one ends.
 */
public final class WorkerPool {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerPool.class);

    private final StubChannel stubs;
    private final Map<Context, Slot> slots = new ConcurrentHashMap<>();
    private volatile LoadedScript current;

    public WorkerPool(StubChannel stubs) {
        this.stubs = stubs;
    }

    /** Makes {@code script} the code every new request runs. */
    public void install(LoadedScript script) {
        current = script;
    }

    public LoadedScript current() {
        return current;
    }

    /**
     * Runs the Worker's fetch for a request that arrived on {@code ctx}; must be called on that
     * context's thread. Fails with {@link IllegalStateException} when nothing is deployed.
     */
    public CompletableFuture<HttpResponseData> fetch(Context requestCtx, HttpRequestData request) {
        // Vert.x runs each HTTP request on a DUPLICATE of the event loop's context (a new object per
        // request): keyed by it, every request would build a fresh Worker instance (a new JS context).
        Context ctx = requestCtx instanceof io.vertx.core.internal.ContextInternal ci ? ci.unwrap() : requestCtx;
        LoadedScript script = current;
        if (script == null) {
            return CompletableFuture.failedFuture(new NoDeploymentException());
        }
        Slot s = slotFor(ctx, script);
        s.inFlight++;
        CompletableFuture<HttpResponseData> f;
        try {
            f = s.instance.fetch(request);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        // The request leaves the instance when its response body has flowed out, not when the
        // headers are ready: a retired instance closed under a streaming body stalls the response.
        Runnable left = () -> ctx.runOnContext(v -> {
            s.inFlight--;
            s.closeIfIdle();
        });
        return f.handle((r, e) -> {
            if (e != null) {
                left.run();
                throw e instanceof java.util.concurrent.CompletionException ce ? ce : new java.util.concurrent.CompletionException(e);
            }
            return StreamedBodyEnd.watch(r, left);
        });
    }

    /**
     * Runs the Worker's {@code scheduled()} for one cron occurrence on {@code ctx} (any thread may
     * call: it hops onto the context), on the same stateless instance that context's requests use.
     * Completes when the handler and its waitUntil have settled.
     */
    public CompletableFuture<Void> scheduled(Context ctx, String cron, long scheduledTimeMs) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        ctx.runOnContext(v -> {
            LoadedScript script = current;
            if (script == null) {
                done.completeExceptionally(new NoDeploymentException());
                return;
            }
            Slot s = slotFor(ctx, script);
            s.inFlight++;
            CompletableFuture<Void> f;
            try {
                f = s.instance.scheduled(cron, scheduledTimeMs);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((r, e) -> ctx.runOnContext(x -> {
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

    /** The instance of the current code on {@code ctx}, made on first use; the one it replaces retires. */
    private Slot slotFor(Context ctx, LoadedScript script) {
        Slot slot = slots.get(ctx);
        if (slot == null || slot.script != script) {
            Slot old = slot;
            slot = new Slot(script, script.newWorker(host(ctx)), ctx);
            slots.put(ctx, slot);
            if (old != null) {
                old.retired = true;
                old.closeIfIdle();
            }
        }
        return slot;
    }

    private InstanceHost host(Context ctx) {
        Executor ex = new ContextExecutor(ctx);
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

    /** One Worker instance on one context; touched only on that context's thread. */
    private static final class Slot {
        /** How often a retired instance with work still in flight looks again. */
        static final long RECHECK_MS = 1_000;

        final LoadedScript script;
        final WorkerInstance instance;
        final Context ctx;
        int inFlight;
        boolean retired;
        boolean closed;
        boolean recheckPending;

        Slot(LoadedScript script, WorkerInstance instance, Context ctx) {
            this.script = script;
            this.instance = instance;
            this.ctx = ctx;
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
                    ctx.owner().setTimer(RECHECK_MS, id -> ctx.runOnContext(v -> {
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
