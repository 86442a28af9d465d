package dev.cellgate.deploy.push;

import dev.cellgate.core.logic.NodeCompat;
import dev.cellgate.core.plugin.PluginHost;
import dev.cellgate.core.spi.js.BundleModule;
import dev.cellgate.core.spi.js.JsEngine;
import dev.cellgate.core.spi.js.JsEngineConfig;
import dev.cellgate.core.spi.js.JsEngineProvider;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.Env;
import dev.cellgate.deploy.cli.ToolPlugins;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Loads a bundle in the engine nodes run (the js-graal plugin, through the {@link JsEngineProvider}
 * SPI) before anything is written: every module parses, the main module evaluates, and every
 * Durable Object binding names a class the main module exports. A bundle that fails here would
 * fail on every node, which would then keep the previous deployment; refusing it at push time
 * says why, with the JavaScript error, to the person who can fix it.
 *
 * <p>The engine runs interpreted here (no JIT flags): the load is a one-shot evaluation, and the
 * CPU budget of that evaluation is the one nodes give it: the Worker's {@code limits.cpu_ms}, else
 * {@code CELLD_CPU_MS} (default 30000), and at least the engine's set-up minimum.
 */
public final class LoadCheck {
    static final int DEFAULT_CPU_MS = 30_000;

    private LoadCheck() {
    }

    /** The classes the main module exports. */
    public static Set<String> check(Bundle b, ToolPlugins plugins, Env env) {
        JsEngineProvider provider = provider(plugins);
        Map<String, BundleModule> modules = new LinkedHashMap<>();
        b.modules().forEach((path, bytes) -> modules.put(path, new BundleModule(b.type(path), bytes)));
        ScriptBundle sb = ScriptBundle.of("push-check", b.name(), b.main(), modules, b.config().vars(),
                b.config().durableObjects(), b.config().compatibilityDate() == null ? "2024-01-01" : b.config().compatibilityDate(),
                b.config().compatibilityFlags()).withBindings(b.config().bindings().stream()
                .map(x -> new dev.cellgate.core.spi.js.EnvBinding(x.name(), x.type(), x.settings())).toList())
                .withCpuLimitMs(b.config().cpuMs());
        JsEngine engine;
        try {
            // The binding types nodes of this build serve; the bucket is not open yet (providers refuse I/O).
            engine = provider.create(new JsEngineConfig(null, cpuMs(env), Long.MAX_VALUE, "deploy-tool",
                    dev.cellgate.core.spi.js.Egress.of(dev.cellgate.core.logic.EgressPolicy.DEFAULT), JsEngineConfig.DEFAULT_CACHE_BYTES,
                    dev.cellgate.core.bindings.FleetBindings.registry(null)));
        } catch (RuntimeException e) {
            throw CommandException.failed("the JavaScript engine (" + provider.name() + ") did not start: " + e, e);
        }
        Set<String> exported;
        try (engine; LoadedScript script = engine.load(sb)) {
            exported = script.exportedClasses();
        } catch (ScriptLoadException e) {
            throw CommandException.refused("the bundle does not load in GraalJS, nodes would refuse it:\n" + e.getMessage()
                    + NodeImports.explainLoadFailure(e.getMessage(), NodeCompat.of(sb.compatibilityDate(), sb.compatibilityFlags()))
                    + UsingDeclarations.explainLoadFailure(e.getMessage()));
        }
        // The SPI asks engines to check this too; checked again here so no engine can let it through.
        for (Map.Entry<String, String> d : b.config().durableObjects().entrySet()) {
            if (!exported.contains(d.getValue())) {
                throw CommandException.refused("Durable Object binding " + d.getKey() + " names class " + d.getValue()
                        + ", which " + b.main() + " does not export (it exports " + exported + ")");
            }
        }
        return exported;
    }

    private static JsEngineProvider provider(ToolPlugins plugins) {
        PluginHost host = plugins.host();
        if (host == null) {
            throw CommandException.failed("no plugins directory (" + plugins.dir() + "): deploy-tool needs js-graal.jar there "
                    + "to check bundles; rebuild (mvn package) or set CELLD_PLUGINS_DIR", null);
        }
        List<JsEngineProvider> found = host.extensions(JsEngineProvider.class);
        if (found.size() != 1) {
            throw CommandException.failed((found.isEmpty() ? "no JavaScript engine plugin" : "several JavaScript engine plugins "
                    + found.stream().map(JsEngineProvider::name).toList()) + " in " + host.dir() + " (it holds "
                    + host.jarNames() + "); deploy-tool needs exactly one (js-graal.jar) to check bundles", null);
        }
        return found.get(0);
    }

    private static long cpuMs(Env env) {
        String v = env.get("CELLD_CPU_MS");
        if (v == null) {
            return DEFAULT_CPU_MS;
        }
        try {
            long n = Long.parseLong(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw CommandException.usage("CELLD_CPU_MS must be a positive integer (got '" + v + "')");
    }
}
