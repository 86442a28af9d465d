package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;

/**
 * The manifest's {@code triggers}: the Worker's cron expressions ({@code triggers.crons}), as
 * written. Manifests from before this schema stored {@code triggers} as given ({@code {}} or
 * {@code {"crons": [...]}}), which this reads the same way.
 */
public record Triggers(List<String> crons) {
    public static final Triggers NONE = new Triggers(List.of());

    public Triggers {
        crons = List.copyOf(crons);
    }

    public JsonObject toJson() {
        return new JsonObject().put("crons", new JsonArray(crons));
    }

    public static Triggers decode(Object value) {
        if (value == null) {
            return NONE;
        }
        return new Triggers(StrictJson.of(value, "triggers").only(Set.of("crons")).texts("crons"));
    }
}
