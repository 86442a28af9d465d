package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * {@code services[]}: a service binding to a Worker ({@code service}) and one of its entrypoints
 * (null: the default export), with the {@code props} it receives as {@code ctx.props} (null: none).
 */
public record ServiceBinding(String name, String service, String entrypoint, JsonObject props) implements Binding {
    public static final String TYPE = "service";

    public ServiceBinding {
        Bindings.requireName(name);
        java.util.Objects.requireNonNull(service, "service");
        props = props == null ? null : props.copy();
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public JsonObject settings() {
        JsonObject o = StrictJson.putIf(new JsonObject().put("service", service), "entrypoint", entrypoint);
        return StrictJson.putIf(o, "props", props == null ? null : props.copy());
    }

    static ServiceBinding decode(String name, StrictJson f) {
        f.only(Set.of("type", "name", "service", "entrypoint", "props"));
        return new ServiceBinding(name, f.text("service"), f.textOrNull("entrypoint"), f.objectOrNull("props"));
    }
}
