package dev.cellgate.js.graal.support;

import dev.cellgate.core.spi.js.JsEngineConfig;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.js.graal.GraalJsEngine;
import dev.cellgate.js.graal.JsLimits;
import io.vertx.core.Vertx;

/** A real GraalJS engine on a real Vert.x for tests. */
public final class TestEngine implements AutoCloseable {
    public final Vertx vertx = Vertx.vertx();
    public final GraalJsEngine engine;

    public TestEngine() {
        this(new JsLimits(30_000, JsLimits.defaultAllocationLimit(), 10));
    }

    public TestEngine(JsLimits limits) {
        this(limits, GraalJsEngine.Gates.ENFORCED);
    }

    public TestEngine(JsLimits limits, GraalJsEngine.Gates gates) {
        this(limits, gates, dev.cellgate.core.spi.js.BindingRegistry.NONE);
    }

    /** An engine whose host serves the binding types of {@code bindings}. */
    public TestEngine(dev.cellgate.core.spi.js.BindingRegistry bindings) {
        this(new JsLimits(30_000, JsLimits.defaultAllocationLimit(), 10), GraalJsEngine.Gates.ENFORCED, bindings);
    }

    private TestEngine(JsLimits limits, GraalJsEngine.Gates gates, dev.cellgate.core.spi.js.BindingRegistry bindings) {
        this.engine = new GraalJsEngine(new JsEngineConfig(vertx, limits.cpuBudgetMs(), 100L << 20, "test-node", bindings),
                limits, gates);
    }

    public LoadedScript load(ScriptBundle bundle) throws ScriptLoadException {
        return engine.load(bundle);
    }

    /** A Worker of {@code bundle} whose stubs reach cells of the same bundle in this process. */
    public TestWorker worker(ScriptBundle bundle) throws ScriptLoadException {
        LoadedScript script = engine.load(bundle);
        return new TestWorker(script);
    }

    @Override
    public void close() {
        engine.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }
}
