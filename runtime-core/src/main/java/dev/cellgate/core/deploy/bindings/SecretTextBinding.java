package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * A secret on {@code env}. The manifest holds its NAME only: the value lives in the bucket under
 * {@code secrets/<worker>/<NAME>} ({@code deploy-tool secret put}), read by each node when it loads
 * the deployment.
 */
public record SecretTextBinding(String name) implements Binding {
    public static final String TYPE = "secret_text";

    public SecretTextBinding {
        Bindings.requireName(name);
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public JsonObject settings() {
        return new JsonObject();
    }

    static SecretTextBinding decode(String name, StrictJson f) {
        f.only(Set.of("type", "name"));
        return new SecretTextBinding(name);
    }
}
