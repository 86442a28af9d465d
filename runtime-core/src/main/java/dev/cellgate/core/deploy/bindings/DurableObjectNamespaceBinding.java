package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/** {@code durable_objects.bindings[]}: a namespace of a class the Worker itself exports. */
public record DurableObjectNamespaceBinding(String name, String className) implements Binding {
    public static final String TYPE = "durable_object_namespace";

    public DurableObjectNamespaceBinding {
        Bindings.requireName(name);
        java.util.Objects.requireNonNull(className, "className");
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public JsonObject settings() {
        return new JsonObject().put("class_name", className);
    }

    static DurableObjectNamespaceBinding decode(String name, StrictJson f) {
        f.only(Set.of("type", "name", "class_name"));
        return new DurableObjectNamespaceBinding(name, f.text("class_name"));
    }
}
