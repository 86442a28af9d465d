package dev.cellgate.deploy.wrangler;

import dev.cellgate.core.deploy.bindings.WorkflowBinding;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Wrangler's {@code workflows}: {@code [{name, binding, class_name, script_name?}]} as manifest
 * {@code workflow} bindings (docs/workflows.md). A fleet runs ONE Worker, so {@code script_name}
 * may only name that Worker itself; a Workflow defined by another Worker is refused by name.
 * Any other field (Wrangler's {@code limits}, {@code remote}, …) is refused by name too.
 */
final class WorkflowsKey {
    static final Set<String> FIELDS = Set.of("name", "binding", "class_name", "script_name");

    private WorkflowsKey() {
    }

    /** @param workerName this Worker's name (may be null when the config has none) */
    static List<WorkflowBinding> parse(Object value, String where, String workerName) {
        List<WorkflowBinding> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        if (!(value instanceof JsonArray a)) {
            throw new IllegalArgumentException(where + ": \"workflows\" must be an array of {name, binding, class_name, script_name?}");
        }
        Set<String> names = new HashSet<>();
        for (Object e : a) {
            if (!(e instanceof JsonObject o)) {
                throw new IllegalArgumentException(where + ": each of \"workflows\" must be an object (got " + e + ")");
            }
            for (String f : o.fieldNames()) {
                if (!FIELDS.contains(f)) {
                    throw new IllegalArgumentException(where + ": workflows key \"" + f + "\" is not supported by cellgate ("
                            + String.join(", ", new TreeSet<>(FIELDS)) + ")");
                }
            }
            String name = text(o, "name");
            String binding = text(o, "binding");
            String className = text(o, "class_name");
            if (name == null || binding == null || className == null) {
                throw new IllegalArgumentException(where + ": each of \"workflows\" needs \"name\", \"binding\" and \"class_name\" as strings (got " + o + ")");
            }
            if (o.containsKey("script_name")) {
                String script = text(o, "script_name");
                if (script == null || !script.equals(workerName)) {
                    throw new IllegalArgumentException(where + ": workflow \"" + name + "\": script_name \"" + o.getValue("script_name")
                            + "\" names another Worker; a cellgate fleet runs one Worker, so a Workflow must be defined by this one ("
                            + workerName + ")");
                }
            }
            if (!names.add(name)) {
                throw new IllegalArgumentException(where + ": workflow name \"" + name + "\" is used by more than one of \"workflows\"");
            }
            out.add(new WorkflowBinding(binding, name, className));
        }
        return out;
    }

    private static String text(JsonObject o, String key) {
        Object v = o.getValue(key);
        return v instanceof String s && !s.isEmpty() ? s : null;
    }
}
