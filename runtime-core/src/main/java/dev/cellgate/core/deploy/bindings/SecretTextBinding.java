package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * A secret on {@code env}. The manifest holds its NAME and the VERSION of the value it runs with,
 * never the value: that lives in the bucket under {@code secrets/<worker>/<NAME>/<version>.json}
 * ({@code deploy-tool secret put}, {@code core/deploy/SecretStore}), read by each node when it
 * loads the deployment. A put stores a new version and makes a new deployment that names it, so a
 * deployment's secrets are fixed like its code: every node, and a later rollback to it, runs the
 * same values (as a Cloudflare version carries its secrets).
 */
public record SecretTextBinding(String name, String version) implements Binding {
    public static final String TYPE = "secret_text";

    public SecretTextBinding {
        Bindings.requireName(name);
        if (!dev.cellgate.core.logic.SecretNames.isVersion(version)) {
            throw new IllegalArgumentException("secret " + name + ": '" + version + "' is not a secret version (v-<time>-<hex>)");
        }
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public JsonObject settings() {
        return new JsonObject().put("version", version);
    }

    static SecretTextBinding decode(String name, StrictJson f) {
        f.only(Set.of("type", "name", "version"));
        return new SecretTextBinding(name, f.text("version"));
    }
}
