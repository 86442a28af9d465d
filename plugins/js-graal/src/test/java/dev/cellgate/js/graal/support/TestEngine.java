package dev.cellgate.js.graal.support;

import dev.cellgate.core.logic.EgressPolicy;
import dev.cellgate.core.spi.js.Egress;
import dev.cellgate.core.spi.js.JsEngineConfig;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.js.graal.GraalJsEngine;
import dev.cellgate.js.graal.JsLimits;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real GraalJS engine on a real Vert.x for tests. A test class that shares one registers it,
 * {@code @RegisterExtension static final TestEngine engine = new TestEngine();}, and it is closed
 * after the class's last test.
 */
public final class TestEngine implements AutoCloseable, AfterAllCallback {
    public final Vertx vertx = Vertx.vertx();
    public final GraalJsEngine engine;

    public TestEngine() {
        this(new JsLimits(30_000, JsLimits.defaultAllocationLimit(), 10));
    }

    public TestEngine(JsLimits limits) {
        this(limits, GraalJsEngine.Gates.ENFORCED);
    }

    public TestEngine(JsLimits limits, GraalJsEngine.Gates gates) {
        this(limits, gates, LOCAL_ORIGINS);
    }

    /** An engine whose host serves the binding types of {@code bindings}. */
    public TestEngine(dev.cellgate.core.spi.js.BindingRegistry bindings) {
        this(new JsLimits(30_000, JsLimits.defaultAllocationLimit(), 10), GraalJsEngine.Gates.ENFORCED, LOCAL_ORIGINS, "test-node", bindings);
    }

    /** An engine that names itself {@code nodeId} (a test with several "nodes" in one process). */
    public TestEngine(String nodeId) {
        this(new JsLimits(30_000, JsLimits.defaultAllocationLimit(), 10), GraalJsEngine.Gates.ENFORCED, LOCAL_ORIGINS, nodeId,
                dev.cellgate.core.spi.js.BindingRegistry.NONE);
    }

    /** An engine whose Workers may connect only where {@code egress} says (the default refusals, lifted by its allow list). */
    public TestEngine(Egress egress) {
        this(new JsLimits(30_000, JsLimits.defaultAllocationLimit(), 10), GraalJsEngine.Gates.ENFORCED, egress);
    }

    /** An engine with these limits whose host serves the binding types of {@code bindings}. */
    public TestEngine(JsLimits limits, GraalJsEngine.Gates gates, Egress egress, dev.cellgate.core.spi.js.BindingRegistry bindings) {
        this(limits, gates, egress, "test-node", bindings);
    }

    public TestEngine(JsLimits limits, GraalJsEngine.Gates gates, Egress egress) {
        this(limits, gates, egress, "test-node", dev.cellgate.core.spi.js.BindingRegistry.NONE);
    }

    private TestEngine(JsLimits limits, GraalJsEngine.Gates gates, Egress egress, String nodeId,
                       dev.cellgate.core.spi.js.BindingRegistry bindings) {
        this.engine = new GraalJsEngine(new JsEngineConfig(vertx, limits.cpuBudgetMs(), 100L << 20, nodeId, egress,
                JsEngineConfig.DEFAULT_CACHE_BYTES, bindings), limits, gates);
    }

    /**
     * What the tests' Workers may reach: the {@link OriginServer}s on loopback, listed in the allow
     * list as an operator would (CELLD_EGRESS_ALLOW=127.0.0.1); every other default refusal stays.
     */
    public static final Egress LOCAL_ORIGINS = Egress.of(EgressPolicy.of("127.0.0.1", null));

    public LoadedScript load(ScriptBundle bundle) throws ScriptLoadException {
        return engine.load(bundle);
    }

    /** A Worker of {@code bundle} whose stubs reach cells of the same bundle in this process. */
    public TestWorker worker(ScriptBundle bundle) throws ScriptLoadException {
        LoadedScript script = engine.load(bundle);
        return new TestWorker(script);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    @Override
    public void close() {
        engine.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }
}
