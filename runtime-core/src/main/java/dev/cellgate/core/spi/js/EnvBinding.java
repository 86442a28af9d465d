package dev.cellgate.core.spi.js;

import io.vertx.core.json.JsonObject;
import java.util.Objects;

/**
 * A binding of the Worker's {@code env} as the engine sees it: the name, the type tag (see
 * {@code deploy/bindings/Binding}), the type's settings as the manifest records them, and for a
 * binding whose value is confidential (a secret) that value, resolved by the node when it loaded
 * the deployment. Vars ({@code plain_text}) and Durable Object namespaces are not among these: the
 * engine builds them itself ({@link ScriptBundle#vars()}, {@link ScriptBundle#durableObjects()}).
 * Every other binding reaches {@code env} through the {@link BindingProvider} of its type.
 *
 * @param sensitive the confidential value or null; never in {@link #toString()} or logs
 */
public record EnvBinding(String name, String type, JsonObject settings, String sensitive) {
    public EnvBinding {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        settings = settings == null ? new JsonObject() : settings.copy();
    }

    public EnvBinding(String name, String type, JsonObject settings) {
        this(name, type, settings, null);
    }

    @Override
    public JsonObject settings() {
        return settings.copy();
    }

    @Override
    public String toString() {
        return "EnvBinding[" + name + ": " + type + " " + settings.encode() + (sensitive == null ? "" : " (value withheld)") + "]";
    }
}
