package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.logic.NodeCompat;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.TreeSet;

/**
 * What the JavaScript side of the node: modules needs to know about a Worker (the {@code node}
 * member of the bundle JSON that {@code dispatch.js} configures): whether the Node globals exist,
 * which shape {@code process} has, what {@code process.env} holds, and which modules
 * {@code process.getBuiltinModule()} may hand out.
 */
final class NodeModulesConfig {
    /** The main wrapper's first line under nodejs_compat/nodejs_als (see {@code node-registry.js}). */
    static final String REGISTRY_IMPORT = "import \"/__cellgate/node-registry.js\";\n";

    /**
     * Test-only: {@code true} builds AsyncLocalStorage the naive way — no engine async context, the
     * store a global that run() sets and restores — so AsyncLocalStorageTest can show that its
     * checks catch a store lost across await and mixed between interleaved requests. Never set in
     * production code.
     */
    static volatile boolean naiveAsyncContextForNegativeControl;

    private NodeModulesConfig() {
    }

    static JsonObject json(NodeCompat node, Map<String, String> vars) {
        JsonArray modules = new JsonArray();
        for (String name : new TreeSet<>(NodeCompat.IMPLEMENTED)) {
            if (node.availability(name) == NodeCompat.Availability.PROVIDED) {
                modules.add(name);
            }
        }
        return new JsonObject()
                .put("enabled", node.nodejsCompat())
                .put("als", node.asyncLocalStorage())
                .put("globals", node.v2())
                .put("processV2", node.processV2())
                .put("globalTimers", node.globalTimers())
                .put("populateProcessEnv", node.populateProcessEnv())
                // workerd puts the Worker's string bindings (vars, secrets) in process.env.
                .put("env", new JsonObject(new java.util.HashMap<>(vars)))
                .put("modules", modules)
                .put("naiveAsyncContext", naiveAsyncContextForNegativeControl);
    }
}
