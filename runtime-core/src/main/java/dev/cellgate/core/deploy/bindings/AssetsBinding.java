package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * {@code assets.binding}: the Worker's static assets as a fetcher on {@code env}. How the assets
 * are served is the manifest's {@code assets} object ({@link AssetsConfig}); this is only the name.
 */
public record AssetsBinding(String name) implements Binding {
    public static final String TYPE = "assets";

    public AssetsBinding {
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

    static AssetsBinding decode(String name, StrictJson f) {
        f.only(Set.of("type", "name"));
        return new AssetsBinding(name);
    }
}
