package dev.cellgate.js.graal;

import dev.cellgate.core.spi.js.EngineInfo;
import dev.cellgate.core.spi.js.JsEngine;
import dev.cellgate.core.spi.js.JsEngineConfig;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.js.graal.bundle.GraalLoadedScript;
import dev.cellgate.js.graal.host.OutboundHttp;
import dev.cellgate.js.graal.instance.TurnWatchdog;
import java.util.concurrent.atomic.AtomicBoolean;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.io.IOAccess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process-wide GraalJS engine: ONE polyglot {@link Engine} whose compiled code (runtime
 * scripts and bundle modules alike) every context shares, so a new instance costs a context and
 * an evaluation of cached sources, not a parse.
 */
public final class GraalJsEngine implements JsEngine {
    private static final Logger LOG = LoggerFactory.getLogger(GraalJsEngine.class);

    /**
     * Whether Durable Objects get input gates. {@link #OFF_FOR_NEGATIVE_CONTROL} exists only so the
     * gate tests can show that they fail without them: {@code blockConcurrencyWhile} then holds
     * nothing and storage promises settle in a later turn, like a naive asynchronous store.
     */
    public enum Gates { ENFORCED, OFF_FOR_NEGATIVE_CONTROL }

    /**
     * Java members reachable from JavaScript: only those marked {@code @HostAccess.Export}, the
     * methods of binding host objects marked {@code @BindingMethod} (runtime-core cannot use Graal's
     * annotation), plus byte buffers.
     */
    static final HostAccess HOST_ACCESS = HostAccess.newBuilder(HostAccess.EXPLICIT)
            .allowAccessAnnotatedBy(dev.cellgate.core.spi.js.BindingMethod.class).allowBufferAccess(true).build();

    private final JsEngineConfig config;
    private final JsLimits limits;
    private final Engine engine;
    private final RuntimeScripts runtime;
    private final TurnWatchdog watchdog;
    private final OutboundHttp http;
    private final dev.cellgate.js.graal.host.wasm.WasmEngine wasm;
    private final dev.cellgate.js.graal.host.cache.NodeCache nodeCache;
    private final EngineInfo info;
    private final Gates gates;
    private final dev.cellgate.js.graal.host.rpc.RpcExports rpcExports;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final int cellPoolSize;
    /** Sets pooled Durable Object contexts up (bundle.CellPool), one at a time, off every cell's thread. */
    private final java.util.concurrent.ExecutorService cellPools = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "js-cell-pool");
        t.setDaemon(true);
        return t;
    });

    public GraalJsEngine(JsEngineConfig config, JsLimits limits) {
        this(config, limits, Gates.ENFORCED);
    }

    public GraalJsEngine(JsEngineConfig config, JsLimits limits, Gates gates) {
        this.config = config;
        this.limits = limits;
        this.gates = gates;
        this.cellPoolSize = dev.cellgate.js.graal.bundle.CellPool.configuredSize(); // a bad value stops the start here
        this.rpcExports = new dev.cellgate.js.graal.host.rpc.RpcExports(config.nodeId() == null ? "local" : config.nodeId());
        this.engine = Engine.newBuilder("js")
                // We report the mode ourselves (EngineInfo), loudly, through the node's log.
                .option("engine.WarnInterpreterOnly", "false")
                .build();
        this.runtime = RuntimeScripts.load();
        this.watchdog = new TurnWatchdog(limits);
        this.http = new OutboundHttp(config.vertx(), config.egress());
        this.wasm = new dev.cellgate.js.graal.host.wasm.WasmEngine(dev.cellgate.js.graal.host.wasm.WasmEngine.Mode.COMPILER);
        this.nodeCache = new dev.cellgate.js.graal.host.cache.NodeCache(config.cacheBytes());
        this.info = EngineModes.describe(engine);
        OpenEngines.add(this);
        LOG.atInfo().setMessage("js.engine.started").addKeyValue("name", info.name()).addKeyValue("mode", info.mode())
                .addKeyValue("detail", info.detail()).addKeyValue("cpu_budget_ms", limits.cpuBudgetMs())
                .addKeyValue("input_gates", gates).addKeyValue("cell_pool", cellPoolSize)
                .addKeyValue("max_event_allocated_bytes", limits.maxEventAllocatedBytes()).log();
    }

    @Override
    public EngineInfo info() {
        return info;
    }

    @Override
    public LoadedScript load(ScriptBundle bundle) throws ScriptLoadException {
        ensureOpen();
        return GraalLoadedScript.load(this, bundle);
    }

    /** A new context on the shared engine, seeing only {@code fileSystem}. */
    public Context newContext(org.graalvm.polyglot.io.FileSystem fileSystem) {
        ensureOpen();
        Context.Builder builder = Context.newBuilder("js");
        if (fileSystem instanceof dev.cellgate.js.graal.bundle.BundleFileSystem b && b.asyncContext()) {
            // AsyncLocalStorage (nodejs_compat, nodejs_als) rides on GraalJS's TC39 AsyncContext, which
            // carries the context through await and promise reactions natively. Experimental, and
            // only for these Workers: other contexts keep the engine's default promise machinery.
            builder.allowExperimentalOptions(true).option("js.async-context", "true");
        }
        return builder
                .engine(engine)
                .allowHostAccess(HOST_ACCESS)
                // Workers run in UTC whatever the node's time zone.
                .timeZone(java.time.ZoneOffset.UTC)
                .allowIO(IOAccess.newBuilder().fileSystem(fileSystem).build())
                .option("js.ecmascript-version", "latest")
                .option("js.esm-eval-returns-exports", "true")
                .option("js.text-encoding", "true")
                // Our console goes to SLF4J; GraalJS's own print/console/load would bypass it.
                .option("js.console", "false")
                .option("js.print", "false")
                .option("js.load", "false")
                .option("js.graal-builtin", "false")
                .build();
    }

    public RuntimeScripts runtime() {
        return runtime;
    }

    /** The WebAssembly runtime (Chicory) behind {@code WebAssembly} and CompiledWasm modules. */
    public dev.cellgate.js.graal.host.wasm.WasmEngine wasm() {
        return wasm;
    }

    public JsLimits limits() {
        return limits;
    }

    public TurnWatchdog watchdog() {
        return watchdog;
    }

    /** The node's Cache API store (README, "Cache API"). */
    public dev.cellgate.js.graal.host.cache.NodeCache nodeCache() {
        return nodeCache;
    }

    public OutboundHttp http() {
        return http;
    }

    public JsEngineConfig config() {
        return config;
    }

    /** The objects this engine's contexts passed by reference over RPC, and their stubs. */
    public dev.cellgate.js.graal.host.rpc.RpcExports rpcExports() {
        return rpcExports;
    }

    @Override
    public dev.cellgate.core.spi.js.ExportedObjects exportedObjects() {
        return rpcExports;
    }

    /** Where pooled Durable Object contexts are set up: one daemon thread, never a cell's or an event loop. */
    /** Durable Object contexts each deployment keeps set up ahead (0: none). */
    public int cellPoolSize() {
        return cellPoolSize;
    }

    public java.util.concurrent.Executor cellPoolRefills() {
        return cellPools;
    }

    public boolean gatesEnforced() {
        return gates == Gates.ENFORCED;
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("the GraalJS engine is closed");
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        OpenEngines.remove(this);
        cellPools.shutdownNow();
        watchdog.close();
        http.close();
        // Cancels contexts still open: the plugin is going away and must release its class loader.
        engine.close(true);
        LOG.atInfo().setMessage("js.engine.closed").log();
    }
}
