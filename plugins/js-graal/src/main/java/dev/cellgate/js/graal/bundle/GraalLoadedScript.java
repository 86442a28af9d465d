package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.logic.NodeCompat;
import dev.cellgate.core.spi.js.BundleModule;
import dev.cellgate.core.spi.js.CellHost;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.CellInstance;
import dev.cellgate.core.spi.js.InstanceHost;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ModuleType;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.js.StubChannel;
import dev.cellgate.core.spi.js.WorkerInstance;
import dev.cellgate.js.graal.GraalJsEngine;
import dev.cellgate.js.graal.JsLimits;
import dev.cellgate.js.graal.instance.JsException;
import dev.cellgate.js.graal.instance.JsInstance;
import dev.cellgate.js.graal.instance.ResultEvent;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;

/**
 * A deployment compiled on the shared engine: its module files, the cached main-module source,
 * and the checks that it loads. Instances are contexts created from it. The context that checked
 * the deployment at load time is kept and becomes the first Worker, so the first request does not
 * pay for a second set-up.
 */
public final class GraalLoadedScript implements LoadedScript {
    static final String MODULE_MIME = "application/javascript+module";
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final GraalJsEngine engine;
    private final ScriptBundle bundle;
    private final BundleFileSystem fileSystem;
    private final Source main;
    private final String bundleJson;
    private final Set<String> exportedClasses;
    private final DeploymentBindings bindings;
    /** This deployment's limits: the engine's, with its own limits.cpu_ms when it sets one. */
    private final JsLimits limits;
    private final AtomicReference<Probe> spare;
    /** Durable Object contexts set up ahead ("Pooled contexts", README). */
    private final CellPool cells;

    /** The load-time instance, kept for the first Worker. */
    private record Probe(JsInstance instance, BundleRuntime runtime, AdoptableHost host) {
    }

    private GraalLoadedScript(GraalJsEngine engine, ScriptBundle bundle, BundleFileSystem fs, Source main, String json,
                              Set<String> exported, DeploymentBindings bindings, JsLimits limits, Probe spare) {
        this.engine = engine;
        this.limits = limits;
        this.bindings = bindings;
        this.bundle = bundle;
        this.fileSystem = fs;
        this.main = main;
        this.bundleJson = json;
        this.exportedClasses = exported;
        this.spare = new AtomicReference<>(spare);
        this.cells = new CellPool(engine.cellPoolSize(),
                () -> GraalCellInstance.prepare(engine, limits, fs, main, json, bindings, bundle.scriptName()), engine.cellPoolRefills());
    }

    public static GraalLoadedScript load(GraalJsEngine engine, ScriptBundle bundle) throws ScriptLoadException {
        // First: a binding no provider serves refuses the deployment by name, before any code runs.
        DeploymentBindings bindings = DeploymentBindings.resolve(bundle.bindings(), engine.config().bindings());
        NodeCompat node = NodeCompat.of(bundle.compatibilityDate(), bundle.compatibilityFlags());
        BundleModules modules = new BundleModules(bundle, engine.wasm(), node);
        Map<String, byte[]> files = new HashMap<>();
        for (Map.Entry<String, BundleModule> m : bundle.files().entrySet()) {
            if (m.getValue().type() == ModuleType.ES_MODULE) {
                files.put(BundleFileSystem.bundlePath(m.getKey()), m.getValue().bytes());
            }
        }
        for (Map.Entry<String, byte[]> m : engine.runtime().modules().entrySet()) {
            files.put(BundleFileSystem.BUILTIN_ROOT + m.getKey(), m.getValue());
        }
        BundleFileSystem fs = new BundleFileSystem(Map.copyOf(files), modules, node);
        String mainPath = BundleFileSystem.bundlePath(bundle.mainModule());
        // A wrapper whose namespace holds the main module's namespace: relative imports in the main
        // module then resolve against its real path, and a bundle without a default export still loads.
        // What must evaluate before the main module, while the runtime's internals are still reachable
        // (dispatch.js hides them once the bundle is loaded): under nodejs_compat/nodejs_als the node:
        // module registry (so a node: module imported later with import() still finds them), and with
        // modules other than ES modules the loader they import (dispatch.js: configure/initBundle).
        String first = (node.asyncLocalStorage() ? NodeModulesConfig.REGISTRY_IMPORT : "")
                + (modules.any() ? "import " + quoted(BundleModules.LOADER) + ";\n" : "");
        Source main = Source.newBuilder("js", first + "import * as m from " + quoted(mainPath) + "; export default m;",
                        "/__cellgate/main-" + bundle.deploymentId() + ".js")
                .mimeType(MODULE_MIME).cached(true).buildLiteral();
        JsonObject json = new JsonObject()
                .put("scriptName", bundle.scriptName())
                .put("compatibilityDate", bundle.compatibilityDate())
                .put("compatibilityFlags", new io.vertx.core.json.JsonArray(bundle.compatibilityFlags()))
                .put("gatesEnforced", engine.gatesEnforced())
                .put("vars", new JsonObject(new HashMap<>(bundle.vars())))
                .put("durableObjects", new JsonObject(new HashMap<>(bundle.durableObjects())))
                .put("bindings", bindings.json())
                .put("node", NodeModulesConfig.json(node, textBindings(bundle)));
        JsLimits limits = engine.limits().forWorker(bundle.cpuLimitMs());
        Probe probe = probe(engine, bundle, fs, main, json.encode(), bindings, limits);
        Set<String> exported;
        try {
            exported = exportedClasses(probe.runtime());
            for (Map.Entry<String, String> b : bundle.durableObjects().entrySet()) {
                if (!exported.contains(b.getValue())) {
                    throw new ScriptLoadException("Durable Object binding " + b.getKey() + " names class " + b.getValue()
                            + ", which the main module " + bundle.mainModule() + " does not export (exported classes: " + exported + ")");
                }
            }
            ServiceTargets.check(bundle, () -> probe.runtime().internal().getMember("exportKinds").execute().asString());
            WorkflowTargets.check(bundle, exported);
        } catch (ScriptLoadException | RuntimeException e) {
            probe.instance().close();
            throw e;
        }
        GraalLoadedScript script = new GraalLoadedScript(engine, bundle, fs, main, json.encode(), Set.copyOf(exported), bindings, limits, probe);
        if (!bundle.durableObjects().isEmpty()) {
            script.cells.refill(); // a deployment with Durable Object bindings will construct cells: set contexts up now
        }
        return script;
    }

    /** The Worker's string bindings, vars and secrets: workerd's process.env (nodejs_compat) holds them. */
    private static Map<String, String> textBindings(ScriptBundle bundle) {
        Map<String, String> out = new HashMap<>(bundle.vars());
        for (dev.cellgate.core.spi.js.EnvBinding b : bundle.bindings()) {
            if (b.sensitive() != null) {
                out.put(b.name(), b.sensitive());
            }
        }
        return out;
    }

    private static String quoted(String s) {
        String a = new io.vertx.core.json.JsonArray().add(s).encode();
        return a.substring(1, a.length() - 1);
    }

    /**
     * One context checks the deployment: the runtime and the main module evaluate, then every
     * module the evaluation did not import (and so did not parse) must parse too. It runs on the
     * loading thread; its host queues whatever it schedules until a Worker adopts it.
     */
    private static Probe probe(GraalJsEngine engine, ScriptBundle bundle, BundleFileSystem fs, Source main, String json,
                               DeploymentBindings bindings, JsLimits limits) throws ScriptLoadException {
        BundleRuntime runtime = new BundleRuntime(engine, main, json, fs.modules(), bindings);
        AdoptableHost host = new AdoptableHost();
        JsInstance probe = new JsInstance(host, engine.watchdog(), limits, () -> engine.newContext(fs), (inst, context) -> {
            Runnable release = runtime.setUp(inst, context);
            parseUnimported(bundle, fs, context);
            return release;
        }, "worker " + bundle.scriptName() + "#" + INSTANCES.incrementAndGet());
        ResultEvent startup = new ResultEvent(probe, "load", "module evaluation");
        try {
            probe.start(startup);
            if (startup.future().isCompletedExceptionally()) {
                startup.future().get();
            }
            startup.done();
            return new Probe(probe, runtime, host);
        } catch (ExecutionException e) {
            probe.close();
            Throwable c = e.getCause();
            if (c instanceof ParseFailure p) {
                throw new ScriptLoadException("deployment " + bundle.deploymentId() + " does not parse: " + p.getMessage(), p.getCause());
            }
            if (c instanceof JsException js && isParserError(js)) {
                // The main module (or one it imports) failed to parse while being evaluated.
                throw new ScriptLoadException("deployment " + bundle.deploymentId() + " does not parse: " + js.jsStack(), c);
            }
            String detail = c instanceof JsException js ? js.jsStack() : c.toString();
            throw new ScriptLoadException("deployment " + bundle.deploymentId() + " failed to load: " + detail, c);
        } catch (InterruptedException e) {
            probe.close();
            Thread.currentThread().interrupt();
            throw new ScriptLoadException("interrupted while loading " + bundle.deploymentId(), e);
        }
    }

    /**
     * A SyntaxError from the parser names the module it read ({@code /bundle/…:line:col}); one the
     * code threw itself ({@code JSON.parse}, {@code new Function}) does not.
     */
    private static boolean isParserError(JsException js) {
        return "SyntaxError".equals(js.jsName()) && js.jsMessage() != null
                && js.jsMessage().startsWith(BundleFileSystem.bundlePath(""));
    }

    private static void parseUnimported(ScriptBundle bundle, BundleFileSystem fs, Context context) {
        for (Map.Entry<String, BundleModule> m : bundle.files().entrySet()) {
            String path = BundleFileSystem.bundlePath(m.getKey());
            ModuleType type = m.getValue().type();
            if (!type.isJavaScript() || (type == ModuleType.ES_MODULE && fs.wasRead(path))) {
                continue; // imported by the evaluation (it parsed), or not JavaScript
            }
            try {
                context.parse(type == ModuleType.COMMON_JS ? BundleModules.commonJsSource(path, m.getValue().text())
                        : Source.newBuilder("js", m.getValue().text(), path).mimeType(MODULE_MIME).buildLiteral());
            } catch (PolyglotException e) {
                throw new ParseFailure(e.getMessage() + location(e), e);
            }
        }
    }

    /** A module of the bundle that does not parse. */
    private static final class ParseFailure extends RuntimeException {
        ParseFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static Set<String> exportedClasses(BundleRuntime runtime) {
        String names = runtime.internal().getMember("exportedClassNames").execute().asString();
        Set<String> out = new LinkedHashSet<>();
        for (String n : names.split(",")) {
            if (!n.isEmpty()) {
                out.add(n);
            }
        }
        return out;
    }

    private static String location(PolyglotException e) {
        return e.getSourceLocation() == null ? "" : " (" + e.getSourceLocation().getSource().getName() + ":"
                + e.getSourceLocation().getStartLine() + ")";
    }

    @Override
    public ScriptBundle bundle() {
        return bundle;
    }

    @Override
    public Set<String> exportedClasses() {
        return exportedClasses;
    }

    @Override
    public WorkerInstance newWorker(InstanceHost host) {
        Probe first = spare.getAndSet(null);
        if (first != null) {
            first.host().adopt(host);
            return new GraalWorkerInstance(first.instance(), first.runtime());
        }
        BundleRuntime runtime = new BundleRuntime(engine, main, bundleJson, fileSystem.modules(), bindings);
        JsInstance instance = new JsInstance(host, engine.watchdog(), limits, () -> engine.newContext(fileSystem),
                runtime::setUp, "worker " + bundle.scriptName() + "#" + INSTANCES.incrementAndGet());
        return new GraalWorkerInstance(instance, runtime);
    }

    @Override
    public CellInstance newCell(String className, CellIdentity id, CellHost host) throws ScriptLoadException {
        if (!exportedClasses.contains(className)) {
            throw new ScriptLoadException("the deployment exports no class " + className + " (exported: " + exportedClasses + ")");
        }
        return GraalCellInstance.construct(engine, limits, fileSystem, main, bundleJson, bindings, cells.take(), className, id, host);
    }

    /** Pooled Durable Object contexts ready now (tests). */
    int pooledCells() {
        return cells.ready();
    }

    /** The pooled contexts' instances (tests). */
    java.util.List<JsInstance> pooledInstances() {
        return cells.instances();
    }

    /**
     * Drops the load-time context if no Worker took it, and the pooled Durable Object contexts no
     * cell took. Compiled code belongs to the shared engine.
     */
    @Override
    public void close() {
        cells.close();
        Probe unused = spare.getAndSet(null);
        if (unused != null) {
            AdoptableHost host = unused.host();
            // The context must be closed on a thread that does not run it: no one runs it any more.
            unused.instance().close();
            host.adopt(CLOSED_HOST);
        }
    }

    static final InstanceHost CLOSED_HOST = new ClosedHost();

    /** Where tasks of a closed, never-adopted probe or pooled context go: nowhere. */
    private static final class ClosedHost implements InstanceHost {
        @Override
        public Executor executor() {
            return task -> { };
        }

        @Override
        public StubChannel stubs() {
            return null;
        }
    }
}
