package dev.cellgate.deploy.wrangler;

import dev.cellgate.core.logic.CronSchedule;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * {@code triggers}: {@code { crons: [expression, ...] }}, each in Cloudflare's cron dialect
 * ({@link CronSchedule}: the same parser the nodes time the triggers with). Every bad expression
 * is one refusal, all reported in the same error; the expressions are kept as written, since
 * {@code controller.cron} shows them so.
 */
final class TriggersKey {
    private TriggersKey() {
    }

    static JsonObject parse(Object value, Problems problems) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof JsonObject o)) {
            throw new IllegalArgumentException("\"triggers\" must be an object ({\"crons\": [\"* * * * *\", ...]})");
        }
        for (String k : o.fieldNames()) {
            if (!k.equals("crons")) {
                problems.refuse("key \"triggers." + k + "\" is not supported by cellgate (Wrangler's triggers has only crons)");
            }
        }
        Object crons = o.getValue("crons");
        if (crons == null) {
            return new JsonObject().put("crons", new JsonArray());
        }
        if (!(crons instanceof JsonArray a)) {
            throw new IllegalArgumentException("triggers.crons must be an array of cron expressions");
        }
        JsonArray kept = new JsonArray();
        for (int i = 0; i < a.size(); i++) {
            Object c = a.getValue(i);
            if (!(c instanceof String expression)) {
                problems.refuse("triggers.crons[" + i + "] must be a string (a cron expression), got " + c);
                continue;
            }
            try {
                CronSchedule.parse(expression);
                kept.add(expression);
            } catch (IllegalArgumentException e) {
                problems.refuse("triggers.crons[" + i + "]: " + e.getMessage());
            }
        }
        return new JsonObject().put("crons", kept);
    }
}
