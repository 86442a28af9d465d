package dev.cellgate.js.graal.support;

import dev.cellgate.core.spi.js.ScriptBundle;
import java.util.List;
import java.util.Map;

/** Small bundles for tests. */
public final class Bundles {
    private Bundles() {
    }

    public static ScriptBundle single(String source) {
        return of(Map.of("index.js", source), Map.of(), Map.of());
    }

    public static ScriptBundle of(Map<String, String> modules, Map<String, String> vars, Map<String, String> durableObjects) {
        String main = modules.containsKey("index.js") ? "index.js" : modules.keySet().iterator().next();
        return new ScriptBundle("test-deploy", "test-script", main, modules, vars, durableObjects, "2025-01-01", List.of());
    }
}
