package dev.cellgate.core.deploy.bindings;

import dev.cellgate.core.logic.CronSchedule;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;

/**
 * The manifest's {@code triggers}: the Worker's cron expressions ({@code triggers.crons}), as
 * written. Manifests from before this schema stored {@code triggers} as given ({@code {}} or
 * {@code {"crons": [...]}}), which this reads the same way. Every expression must parse
 * ({@link CronSchedule}): a node refuses a deployment whose trigger it could never run, by the
 * expression, rather than running the rest and leaving that one accepted and ignored.
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
        List<String> crons = StrictJson.of(value, "triggers").only(Set.of("crons")).texts("crons");
        crons.forEach(CronSchedule::parse); // throws naming the expression
        return new Triggers(crons);
    }
}
