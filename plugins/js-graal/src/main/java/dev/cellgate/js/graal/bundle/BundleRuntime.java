package dev.cellgate.js.graal.bundle;

import dev.cellgate.js.graal.GraalJsEngine;
import dev.cellgate.js.graal.host.HostBridge;
import dev.cellgate.js.graal.host.JsFunctions;
import dev.cellgate.js.graal.instance.JsInstance;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;

/**
 * Fills a fresh context: the runtime scripts, then the bundle's main module, then the Worker's
 * {@code env}. Holds the entry points of the context it set up last (a context replaced after a
 * memory kill gets new ones), so the request path reaches them without lookups.
 */
final class BundleRuntime {
    private static final Source INTERNAL = Source.newBuilder("js", "({})", "cellgate:internal").cached(true).buildLiteral();

    private final GraalJsEngine engine;
    private final Source main;
    private final String bundleJson;
    private final BundleModules modules;
    private boolean cell;
    private final DeploymentBindings bindings;
    private HostBridge bridge;
    private JsFunctions functions;
    private Value internal;

    BundleRuntime(GraalJsEngine engine, Source main, String bundleJson, BundleModules modules, DeploymentBindings bindings) {
        this.engine = engine;
        this.bindings = bindings;
        this.main = main;
        this.bundleJson = bundleJson;
        this.modules = modules;
    }

    /** The {@link JsInstance.Setup} step; returns how to release the context's pending work. */
    Runnable setUp(JsInstance instance, Context context) {
        HostBridge b = new HostBridge(instance, engine.http(), engine.runtime());
        b.bundleModules(modules);
        b.nodeCache(engine.nodeCache());
        b.rpcExports(engine.rpcExports(), cell);
        // env's bindings beyond vars and Durable Objects, opened by dispatch.js's configure (binding seam)
        b.bindings(new dev.cellgate.js.graal.host.BindingBridge(instance, new InstanceBindings(bindings, instance.host())));
        Value in = context.eval(INTERNAL);
        for (Source script : engine.runtime().scripts()) {
            context.eval(script).executeVoid(b, in);
        }
        JsFunctions fns = JsFunctions.of(in);
        b.bind(fns);
        bridge = b;
        functions = fns;
        internal = in;
        in.getMember("configure").executeVoid(bundleJson);
        if (modules.hasSourceMaps()) {
            in.getMember("installSourceMaps").executeVoid();
        }
        Value namespace = context.eval(main).getMember("default");
        in.getMember("initBundle").executeVoid(namespace);
        return b::release;
    }

    /** The contexts set up here hold a Durable Object (RPC sessions are the object's, not a request's). */
    BundleRuntime forCell() {
        cell = true;
        return this;
    }

    JsFunctions functions() {
        return functions;
    }

    HostBridge bridge() {
        return bridge;
    }

    Value internal() {
        return internal;
    }
}
