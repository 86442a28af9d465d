package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.spi.js.CellHost;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.CellInstance;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.js.graal.GraalJsEngine;
import dev.cellgate.js.graal.JsLimits;
import dev.cellgate.js.graal.host.BodyArgs;
import dev.cellgate.js.graal.host.CellBridge;
import dev.cellgate.js.graal.host.HeaderLines;
import dev.cellgate.js.graal.host.StorageBridge;
import dev.cellgate.js.graal.instance.FetchEvent;
import dev.cellgate.js.graal.instance.JsException;
import dev.cellgate.js.graal.instance.JsInstance;
import dev.cellgate.js.graal.instance.ResultEvent;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.graalvm.polyglot.Source;

/**
 * One Durable Object: a context whose target is an instance of the exported class, constructed
 * with {@code (ctx, env)}. If the context has to be replaced (memory kill), the class is
 * constructed again in the new one: its durable state lives in storage, not in the heap.
 */
final class GraalCellInstance implements CellInstance {
    private final JsInstance instance;
    private final BundleRuntime runtime;

    private GraalCellInstance(JsInstance instance, BundleRuntime runtime) {
        this.instance = instance;
        this.runtime = runtime;
    }

    /**
     * A context for a cell not known yet ({@link CellPool}): the runtime and the module evaluated on
     * the calling thread (the pool's), under the start-up allowance of the watchdog, with a host
     * that queues what it posts until a cell adopts it. Null if the set-up failed.
     */
    static CellPool.Pooled prepare(GraalJsEngine engine, JsLimits limits, BundleFileSystem fs, Source main, String bundleJson,
                                   DeploymentBindings bindings, String scriptName) {
        BundleRuntime runtime = new BundleRuntime(engine, main, bundleJson, fs.modules(), bindings).forCell();
        AdoptableCellHost host = new AdoptableCellHost();
        CellSetup setup = new CellSetup(engine, limits, runtime);
        JsInstance instance = new JsInstance(host, engine.watchdog(), limits, () -> engine.newContext(fs), setup,
                "pooled cell of " + scriptName + "#" + POOLED.incrementAndGet());
        ResultEvent startup = new ResultEvent(instance, null, "module evaluation for a pooled cell");
        try {
            instance.start(startup);
        } catch (RuntimeException e) {
            startup.fail(e); // the engine closed, say
        }
        if (startup.future().isCompletedExceptionally() || instance.closed()) {
            CellPool.discard(new CellPool.Pooled(instance, runtime, host, setup));
            return null;
        }
        startup.done();
        return new CellPool.Pooled(instance, runtime, host, setup);
    }

    private static final java.util.concurrent.atomic.AtomicInteger POOLED = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * {@code limits}: the deployment's ({@link GraalLoadedScript}), which may carry its own limits.cpu_ms.
     * {@code pooled}: a context set up ahead, or null to set one up here. Either way the class's
     * constructor runs now, as the start-up of the cell.
     */
    static GraalCellInstance construct(GraalJsEngine engine, JsLimits limits, BundleFileSystem fs, Source main, String bundleJson,
                                       DeploymentBindings bindings, CellPool.Pooled pooled,
                                       String className, CellIdentity id, CellHost host) throws ScriptLoadException {
        StorageBridge storage = new StorageBridge(host::storage);
        JsInstance instance;
        BundleRuntime runtime;
        ResultEvent startup;
        if (pooled != null) {
            runtime = pooled.runtime();
            instance = pooled.instance();
            instance.label("cell " + id.scope());
            // A reset (memory kill, failed blockConcurrencyWhile) sets the next context up in full: module, then constructor.
            pooled.setup().bind(className, id, storage);
            // On the cell's executor: what the module queued (its timers, say) runs there, after this task.
            pooled.host().adopt(host);
            instance.onTurnEnd(() -> settleTransactions(runtime, storage));
            startup = new ResultEvent(instance, null, "construct " + className);
            instance.continueSetUp(startup, (inst, context) -> pooled.setup().construct(inst));
        } else {
            runtime = new BundleRuntime(engine, main, bundleJson, fs.modules(), bindings).forCell();
            CellSetup setup = new CellSetup(engine, limits, runtime);
            setup.bind(className, id, storage);
            instance = new JsInstance(host, engine.watchdog(), limits, () -> engine.newContext(fs), setup, "cell " + id.scope());
            instance.onTurnEnd(() -> settleTransactions(runtime, storage));
            startup = new ResultEvent(instance, null, "construct " + className);
            instance.start(startup);
        }
        if (startup.future().isCompletedExceptionally()) {
            instance.close();
            try {
                startup.future().get();
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                String detail = c instanceof JsException js ? js.jsStack() : c.toString();
                throw new ScriptLoadException("constructing " + className + " for " + id.scope() + " failed: " + detail, c);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ScriptLoadException("interrupted while constructing " + id.scope(), e);
            }
        }
        startup.done();
        return new GraalCellInstance(instance, runtime);
    }

    /**
     * A cell context's set-up: the runtime and the module, then (once the cell is {@link #bind
     * bound}) the class's constructor. A pooled context runs the first half ahead and the second
     * when a cell takes it ({@link #construct}); a replaced context runs both.
     */
    static final class CellSetup implements JsInstance.Setup {
        private final GraalJsEngine engine;
        private final JsLimits limits;
        private final BundleRuntime runtime;
        private String className;
        private CellIdentity id;
        private StorageBridge storage;

        CellSetup(GraalJsEngine engine, JsLimits limits, BundleRuntime runtime) {
            this.engine = engine;
            this.limits = limits;
            this.runtime = runtime;
        }

        /** Before the constructor runs, on the cell's executor (the instance runs there from then on). */
        void bind(String className, CellIdentity id, StorageBridge storage) {
            this.className = className;
            this.id = id;
            this.storage = storage;
        }

        @Override
        public Runnable setUp(JsInstance inst, org.graalvm.polyglot.Context context) {
            Runnable release = runtime.setUp(inst, context);
            if (className == null) {
                return release; // pooled: no cell yet
            }
            Runnable cell = construct(inst);
            return () -> {
                cell.run();
                release.run();
            };
        }

        /** Constructs the class in the context {@code inst} has set up; returns what to release with it. */
        Runnable construct(JsInstance inst) {
            CellBridge cell = new CellBridge(inst, engine.http().vertx(), limits.blockConcurrencyTimeoutMs(), engine.gatesEnforced());
            runtime.internal().getMember("constructCell").executeVoid(className, id.hex(), id.name(), storage, cell);
            return cell::release;
        }
    }

    /**
     * The host commits storage after every turn, so no transaction may outlive one: an async
     * {@code storage.transaction()} still pending now is rolled back and rejects (storage.js says
     * why). If JavaScript cannot run (the turn was interrupted), the savepoints are rolled back
     * directly.
     */
    private static void settleTransactions(BundleRuntime runtime, StorageBridge storage) {
        if (storage.openTransactions() == 0) {
            return;
        }
        try {
            for (int i = 0; i < 8 && storage.openTransactions() > 0; i++) {
                runtime.internal().getMember("settleOpenTransactions").executeVoid();
            }
        } finally {
            storage.rollbackAll();
        }
    }

    @Override
    public CompletableFuture<HttpResponseData> fetch(HttpRequestData request) {
        FetchEvent event = new FetchEvent(instance, runtime::functions, request.requestId(), "fetch " + request.method() + " " + request.url());
        instance.deliver(event, () -> runtime.functions().dispatchFetch().executeVoid(event, request.method(), request.url(),
                HeaderLines.encode(request.headers()), BodyArgs.kindOf(request.body()), BodyArgs.valueOf(instance, event, request.body())));
        return event.future();
    }

    @Override
    public CompletableFuture<byte[]> call(String method, byte[] arguments) {
        ResultEvent event = new ResultEvent(instance, null, "rpc " + method);
        instance.deliver(event, () -> runtime.functions().dispatchCall().executeVoid(event, method, ByteBuffer.wrap(arguments)));
        return event.future();
    }

    @Override
    public CompletableFuture<Void> alarm(int retryCount, boolean isRetry) {
        ResultEvent event = new ResultEvent(instance, null, "alarm");
        instance.deliver(event, () -> runtime.functions().dispatchAlarm().executeVoid(event, retryCount, isRetry));
        return event.future().thenApply(b -> null);
    }

    @Override
    public CompletableFuture<Void> webSocketEvent(String socketId, dev.cellgate.core.spi.js.WsFrame frame) {
        return WebSocketEvents.frame(instance, runtime, socketId, frame);
    }

    @Override
    public CompletableFuture<Void> webSocketError(String socketId, String message) {
        return WebSocketEvents.error(instance, runtime, socketId, message);
    }

    @Override
    public void closeWebSockets(int code, String reason) {
        if (runtime.bridge() != null) {
            runtime.bridge().webSockets().closeAll(code, reason);
        }
    }

    @Override
    public int eventsInFlight() {
        return instance.inFlight();
    }

    @Override
    public void close() {
        instance.close();
    }
}
