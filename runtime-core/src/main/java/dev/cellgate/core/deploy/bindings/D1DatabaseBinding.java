package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/** {@code d1_databases[]}: a D1 database, named by its id (or, without one, by its name). */
public record D1DatabaseBinding(String name, String databaseName, String databaseId) implements Binding {
    public static final String TYPE = "d1";

    public D1DatabaseBinding {
        Bindings.requireName(name);
        if (databaseName == null && databaseId == null) {
            throw new IllegalArgumentException("D1 binding " + name + " needs a database_name or a database_id");
        }
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public JsonObject settings() {
        JsonObject o = StrictJson.putIf(new JsonObject(), "database_name", databaseName);
        return StrictJson.putIf(o, "database_id", databaseId);
    }

    static D1DatabaseBinding decode(String name, StrictJson f) {
        f.only(Set.of("type", "name", "database_name", "database_id"));
        return new D1DatabaseBinding(name, f.textOrNull("database_name"), f.textOrNull("database_id"));
    }
}
