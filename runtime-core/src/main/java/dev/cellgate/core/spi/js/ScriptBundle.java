package dev.cellgate.core.spi.js;

import java.util.List;
import java.util.Map;

/**
 * A deployment as the engine sees it.
 *
 * @param deploymentId        the deployment id (for logs and caches)
 * @param scriptName          the Worker's name (Wrangler {@code name}); part of {@code idFromName}
 * @param mainModule          the module path of the entry point, a key of {@code modules}
 * @param modules             module path to source text (ES modules), e.g. {@code index.js}
 * @param vars                plain-text {@code vars}, after {@code CELLD_VAR_*} overrides
 * @param durableObjects      Durable Object namespace bindings: binding name to class name
 * @param compatibilityDate   Wrangler {@code compatibility_date}
 * @param compatibilityFlags  Wrangler {@code compatibility_flags}
 */
public record ScriptBundle(
        String deploymentId,
        String scriptName,
        String mainModule,
        Map<String, String> modules,
        Map<String, String> vars,
        Map<String, String> durableObjects,
        String compatibilityDate,
        List<String> compatibilityFlags) {

    public ScriptBundle {
        modules = Map.copyOf(modules);
        vars = Map.copyOf(vars);
        durableObjects = Map.copyOf(durableObjects);
        compatibilityFlags = List.copyOf(compatibilityFlags);
        if (!modules.containsKey(mainModule)) {
            throw new IllegalArgumentException("main module '" + mainModule + "' is not among the modules " + modules.keySet());
        }
    }
}
