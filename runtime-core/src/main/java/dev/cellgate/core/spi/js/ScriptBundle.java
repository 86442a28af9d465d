package dev.cellgate.core.spi.js;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A deployment as the engine sees it.
 *
 * @param deploymentId        the deployment id (for logs and caches)
 * @param scriptName          the Worker's name (Wrangler {@code name}); part of {@code idFromName}
 * @param mainModule          the module path of the entry point, a key of {@code files}; an ES module
 * @param modules             the JavaScript modules (ES modules and CommonJS) as source text, by path, e.g.
 *                            {@code index.js}. Given to the constructor, every entry is an ES module; after it,
 *                            the JavaScript entries of {@code files}
 * @param vars                plain-text {@code vars}, after {@code CELLD_VAR_*} overrides
 * @param durableObjects      Durable Object namespace bindings: binding name to class name
 * @param compatibilityDate   Wrangler {@code compatibility_date}
 * @param compatibilityFlags  Wrangler {@code compatibility_flags}
 * @param files               every file by path with its type, as Wrangler uploads them: ES modules, CommonJS,
 *                            Text, Data, CompiledWasm and source maps (the {@code modules} given are added here
 *                            as ES modules)
 * @param bindings            the env's other bindings (secrets, KV, …), each served by the node's
 *                            {@link BindingProvider} of its type ({@link EnvBinding})
 * @param cpuLimitMs          the Worker's own CPU budget per event ({@code limits.cpu_ms}), for every event of
 *                            every instance of this deployment, its Durable Objects' too; null: the engine's
 *                            default ({@link JsEngineConfig#cpuBudgetMs()}, {@code CELLD_CPU_MS})
 */
public record ScriptBundle(
        String deploymentId,
        String scriptName,
        String mainModule,
        Map<String, String> modules,
        Map<String, String> vars,
        Map<String, String> durableObjects,
        String compatibilityDate,
        List<String> compatibilityFlags,
        Map<String, BundleModule> files,
        List<EnvBinding> bindings,
        Long cpuLimitMs) {

    public ScriptBundle {
        if (cpuLimitMs != null && cpuLimitMs <= 0) {
            throw new IllegalArgumentException("cpuLimitMs must be positive, got " + cpuLimitMs);
        }
        Map<String, BundleModule> all = new LinkedHashMap<>();
        modules.forEach((path, source) -> all.put(path, BundleModule.esModule(source)));
        for (Map.Entry<String, BundleModule> f : files.entrySet()) {
            if (all.put(f.getKey(), f.getValue()) != null) {
                throw new IllegalArgumentException("module '" + f.getKey() + "' is given twice");
            }
        }
        files = Collections.unmodifiableMap(all);
        Map<String, String> js = new LinkedHashMap<>();
        all.forEach((path, m) -> {
            if (m.type().isJavaScript()) {
                js.put(path, m.text());
            }
        });
        modules = Collections.unmodifiableMap(js);
        vars = Map.copyOf(vars);
        durableObjects = Map.copyOf(durableObjects);
        compatibilityFlags = List.copyOf(compatibilityFlags);
        bindings = List.copyOf(bindings);
        java.util.Set<String> names = new java.util.HashSet<>(vars.keySet());
        names.addAll(durableObjects.keySet());
        for (EnvBinding b : bindings) {
            if (!names.add(b.name())) {
                throw new IllegalArgumentException("binding name " + b.name() + " is used twice");
            }
        }
        BundleModule main = files.get(mainModule);
        if (main == null) {
            throw new IllegalArgumentException("main module '" + mainModule + "' is not among the modules " + files.keySet());
        }
        if (main.type() != ModuleType.ES_MODULE) {
            throw new IllegalArgumentException("main module '" + mainModule + "' is " + main.type().wranglerName()
                    + ": a module Worker's main module must be an ES module");
        }
    }

    /** A bundle without a CPU limit of its own (the engine's default applies). */
    public ScriptBundle(String deploymentId, String scriptName, String mainModule, Map<String, String> modules,
                        Map<String, String> vars, Map<String, String> durableObjects, String compatibilityDate,
                        List<String> compatibilityFlags, Map<String, BundleModule> files, List<EnvBinding> bindings) {
        this(deploymentId, scriptName, mainModule, modules, vars, durableObjects, compatibilityDate, compatibilityFlags, files,
                bindings, null);
    }

    /** A bundle of ES modules only (path to source text), as every deployment was before module types. */
    public ScriptBundle(String deploymentId, String scriptName, String mainModule, Map<String, String> modules,
                        Map<String, String> vars, Map<String, String> durableObjects, String compatibilityDate,
                        List<String> compatibilityFlags) {
        this(deploymentId, scriptName, mainModule, modules, vars, durableObjects, compatibilityDate, compatibilityFlags, Map.of(),
                List.of());
    }

    /** A bundle of modules and typed files, with no bindings besides vars and Durable Object namespaces. */
    public ScriptBundle(String deploymentId, String scriptName, String mainModule, Map<String, String> modules,
                        Map<String, String> vars, Map<String, String> durableObjects, String compatibilityDate,
                        List<String> compatibilityFlags, Map<String, BundleModule> files) {
        this(deploymentId, scriptName, mainModule, modules, vars, durableObjects, compatibilityDate, compatibilityFlags, files,
                List.of());
    }

    /** A bundle of typed files. */
    public static ScriptBundle of(String deploymentId, String scriptName, String mainModule, Map<String, BundleModule> files,
                                  Map<String, String> vars, Map<String, String> durableObjects, String compatibilityDate,
                                  List<String> compatibilityFlags) {
        return new ScriptBundle(deploymentId, scriptName, mainModule, Map.of(), vars, durableObjects, compatibilityDate,
                compatibilityFlags, files, List.of());
    }

    /** The same bundle with these other bindings. */
    public ScriptBundle withBindings(List<EnvBinding> envBindings) {
        return new ScriptBundle(deploymentId, scriptName, mainModule, Map.of(), vars, durableObjects, compatibilityDate,
                compatibilityFlags, files, envBindings, cpuLimitMs);
    }

    /** The same bundle with the Worker's own CPU limit per event (null: the engine's default). */
    public ScriptBundle withCpuLimitMs(Long ms) {
        return new ScriptBundle(deploymentId, scriptName, mainModule, Map.of(), vars, durableObjects, compatibilityDate,
                compatibilityFlags, files, bindings, ms);
    }
}
