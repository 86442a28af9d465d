package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.spi.js.CellHost;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.CellInstance;
import dev.cellgate.core.spi.js.InstanceHost;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.js.StubChannel;
import dev.cellgate.core.spi.js.WorkerInstance;
import dev.cellgate.js.graal.GraalJsEngine;
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
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;

/**
 * A deployment compiled on the shared engine: its module files, the cached main-module source,
 * and the checks that it loads. Instances are contexts created from it.
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

    private GraalLoadedScript(GraalJsEngine engine, ScriptBundle bundle, BundleFileSystem fs, Source main, String json,
                              Set<String> exported) {
        this.engine = engine;
        this.bundle = bundle;
        this.fileSystem = fs;
        this.main = main;
        this.bundleJson = json;
        this.exportedClasses = exported;
    }

    public static GraalLoadedScript load(GraalJsEngine engine, ScriptBundle bundle) throws ScriptLoadException {
        Map<String, byte[]> files = new HashMap<>();
        for (Map.Entry<String, String> m : bundle.modules().entrySet()) {
            files.put(BundleFileSystem.bundlePath(m.getKey()), m.getValue().getBytes(StandardCharsets.UTF_8));
        }
        for (Map.Entry<String, byte[]> m : engine.runtime().modules().entrySet()) {
            files.put(BundleFileSystem.BUILTIN_ROOT + m.getKey(), m.getValue());
        }
        BundleFileSystem fs = new BundleFileSystem(Map.copyOf(files));
        String mainPath = BundleFileSystem.bundlePath(bundle.mainModule());
        // A wrapper whose namespace holds the main module's namespace: relative imports in the main
        // module then resolve against its real path, and a bundle without a default export still loads.
        Source main = Source.newBuilder("js", "import * as m from " + new io.vertx.core.json.JsonArray().add(mainPath).encode()
                                .replaceAll("^\\[|\\]$", "") + "; export default m;", "/__cellgate/main-" + bundle.deploymentId() + ".js")
                .mimeType(MODULE_MIME).cached(true).buildLiteral();
        JsonObject json = new JsonObject()
                .put("scriptName", bundle.scriptName())
                .put("vars", new JsonObject(new HashMap<>(bundle.vars())))
                .put("durableObjects", new JsonObject(new HashMap<>(bundle.durableObjects())));
        GraalLoadedScript script = new GraalLoadedScript(engine, bundle, fs, main, json.encode(), Set.of());
        Set<String> exported = script.probe();
        for (Map.Entry<String, String> b : bundle.durableObjects().entrySet()) {
            if (!exported.contains(b.getValue())) {
                throw new ScriptLoadException("Durable Object binding " + b.getKey() + " names class " + b.getValue()
                        + ", which the main module " + bundle.mainModule() + " does not export (exported classes: " + exported + ")");
            }
        }
        return new GraalLoadedScript(engine, bundle, fs, main, json.encode(), Set.copyOf(exported));
    }

    /** Parses every module, evaluates the main one in a throw-away context, and lists its exported classes. */
    private Set<String> probe() throws ScriptLoadException {
        try (Context parseOnly = engine.newContext(fileSystem)) {
            for (Map.Entry<String, String> m : bundle.modules().entrySet()) {
                parseOnly.parse(Source.newBuilder("js", m.getValue(), BundleFileSystem.bundlePath(m.getKey()))
                        .mimeType(MODULE_MIME).buildLiteral());
            }
        } catch (PolyglotException e) {
            throw new ScriptLoadException("deployment " + bundle.deploymentId() + " does not parse: " + e.getMessage()
                    + location(e), e);
        }
        BundleRuntime runtime = new BundleRuntime(engine, main, bundleJson);
        JsInstance probe = new JsInstance(new ProbeHost(), engine.watchdog(), engine.limits(),
                () -> engine.newContext(fileSystem), runtime::setUp, "load probe of " + bundle.deploymentId());
        ResultEvent startup = new ResultEvent(probe, "load", "module evaluation");
        try {
            probe.start(startup);
            if (startup.future().isCompletedExceptionally()) {
                startup.future().get();
            }
            String names = runtime.internal().getMember("exportedClassNames").execute().asString();
            Set<String> out = new LinkedHashSet<>();
            for (String n : names.split(",")) {
                if (!n.isEmpty()) {
                    out.add(n);
                }
            }
            return out;
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            String detail = c instanceof JsException js ? js.jsStack() : c.toString();
            throw new ScriptLoadException("deployment " + bundle.deploymentId() + " failed to load: " + detail, c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ScriptLoadException("interrupted while loading " + bundle.deploymentId(), e);
        } finally {
            probe.close();
        }
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
        BundleRuntime runtime = new BundleRuntime(engine, main, bundleJson);
        JsInstance instance = new JsInstance(host, engine.watchdog(), engine.limits(), () -> engine.newContext(fileSystem),
                runtime::setUp, "worker " + bundle.scriptName() + "#" + INSTANCES.incrementAndGet());
        return new GraalWorkerInstance(instance, runtime);
    }

    @Override
    public CellInstance newCell(String className, CellIdentity id, CellHost host) throws ScriptLoadException {
        if (!exportedClasses.contains(className)) {
            throw new ScriptLoadException("the deployment exports no class " + className + " (exported: " + exportedClasses + ")");
        }
        return GraalCellInstance.construct(engine, fileSystem, main, bundleJson, className, id, host);
    }

    @Override
    public void close() {
        // Nothing to release: compiled code belongs to the shared engine and is collected with it.
    }

    /** The host of the load probe: runs on the loading thread and refuses stub calls. */
    private static final class ProbeHost implements InstanceHost {
        @Override
        public Executor executor() {
            return Runnable::run;
        }

        @Override
        public StubChannel stubs() {
            return new StubChannel() {
                @Override
                public CompletableFuture<dev.cellgate.core.spi.js.HttpResponseData> fetch(CellIdentity target,
                        dev.cellgate.core.spi.js.HttpRequestData request) {
                    return CompletableFuture.failedFuture(new StubCallException("stub calls are not available while a deployment loads", false, null));
                }

                @Override
                public CompletableFuture<byte[]> call(CellIdentity target, String method, byte[] arguments) {
                    return CompletableFuture.failedFuture(new StubCallException("stub calls are not available while a deployment loads", false, null));
                }
            };
        }
    }
}
