package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonObject;

/**
 * One entry of a Worker's {@code env}, as the manifest records it ({@code "bindings"}: an array of
 * {@code {"type", "name", …}}). The type tags are Cloudflare's binding types of a Worker upload
 * ({@code plain_text}, {@code secret_text}, {@code kv_namespace}, …), so a manifest reads like the
 * metadata Wrangler sends. One record per type, each decoded strictly by {@link Bindings}.
 *
 * <p>How a binding reaches JavaScript is not decided here: {@code Deployment.toBundle} turns each
 * into the engine's {@code EnvBinding}, and the node's {@code BindingRegistry} says which types it
 * serves (docs/architecture.md, "Bindings").
 */
public sealed interface Binding permits PlainTextBinding, SecretTextBinding, DurableObjectNamespaceBinding,
        KvNamespaceBinding, R2BucketBinding, D1DatabaseBinding, QueueProducerBinding, WorkflowBinding, ServiceBinding,
        AssetsBinding {

    /** The name on {@code env}. */
    String name();

    /** The manifest's type tag. */
    String type();

    /** The type's own fields (without {@code type} and {@code name}), as the manifest stores them. */
    JsonObject settings();

    default JsonObject toJson() {
        JsonObject o = new JsonObject().put("type", type()).put("name", name());
        settings().forEach(e -> o.put(e.getKey(), e.getValue()));
        return o;
    }
}
