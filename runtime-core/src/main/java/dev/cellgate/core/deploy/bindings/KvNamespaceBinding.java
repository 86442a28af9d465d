package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/** {@code kv_namespaces[]}: a KV namespace, stored under the fleet bucket's {@code kv/<namespace_id>/}. */
public record KvNamespaceBinding(String name, String namespaceId) implements Binding {
    public static final String TYPE = "kv_namespace";

    public KvNamespaceBinding {
        Bindings.requireName(name);
        java.util.Objects.requireNonNull(namespaceId, "namespaceId");
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public JsonObject settings() {
        return new JsonObject().put("namespace_id", namespaceId);
    }

    static KvNamespaceBinding decode(String name, StrictJson f) {
        f.only(Set.of("type", "name", "namespace_id"));
        return new KvNamespaceBinding(name, f.text("namespace_id"));
    }
}
