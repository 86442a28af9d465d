package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/** A {@code vars} entry: a string on {@code env} (a node's {@code CELLD_VAR_<NAME>} overrides it). */
public record PlainTextBinding(String name, String text) implements Binding {
    public static final String TYPE = "plain_text";

    public PlainTextBinding {
        Bindings.requireName(name);
        java.util.Objects.requireNonNull(text, "text");
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public JsonObject settings() {
        return new JsonObject().put("text", text);
    }

    static PlainTextBinding decode(String name, StrictJson f) {
        f.only(Set.of("type", "name", "text"));
        return new PlainTextBinding(name, f.text("text"));
    }
}
