package dev.cellgate.deploy.wrangler;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.TreeSet;

/**
 * Picks the configuration of one Wrangler environment ({@code env.<name>}, {@code push --env NAME})
 * with Wrangler's rules: an inherited key ({@link WranglerKeys.Scope#INHERITED}) takes the top-level
 * value unless the environment sets its own; a non-inherited one (bindings, vars, define…) is only
 * what the environment says, and one the top level has but the environment lacks is noted (as
 * Wrangler warns); a top-level-only key in an environment is refused. The Worker's name in an
 * environment is its own {@code name}, else {@code <name>-<env>} ({@code legacy_env = false}: the
 * top-level name). An environment that is not in the config is refused when the config has others,
 * and otherwise noted, the top-level config used under the suffixed name — as Wrangler does.
 */
public final class Environments {
    private Environments() {
    }

    /** The keys that apply, each value as written; {@code env} itself is left out. */
    public static JsonObject select(JsonObject raw, String envName, Problems problems) {
        JsonObject top = raw.copy();
        Object envs = top.remove("env");
        if (envs != null && !(envs instanceof JsonObject)) {
            problems.refuse("\"env\" must be an object of environments (env.<name>)");
            envs = null;
        }
        JsonObject environments = envs == null ? new JsonObject() : (JsonObject) envs;
        for (String n : environments.fieldNames()) {
            if (!(environments.getValue(n) instanceof JsonObject)) {
                problems.refuse("env." + n + " must be an object");
            }
        }
        if (envName == null) {
            return top;
        }
        JsonObject rawEnv;
        if (environments.getValue(envName) instanceof JsonObject e) {
            rawEnv = e;
        } else if (!environments.isEmpty()) {
            problems.refuse("no environment named \"" + envName + "\" in the config (it has: "
                    + new TreeSet<>(environments.fieldNames()) + ")");
            return top;
        } else {
            problems.note("note: no environment named \"" + envName + "\" in the config: using the top-level config (as Wrangler does),"
                    + " named with the environment");
            rawEnv = null;
        }
        boolean legacyEnv = !Boolean.FALSE.equals(top.getValue("legacy_env"));
        JsonObject out = new JsonObject();
        for (Map.Entry<String, WranglerKeys.Key> k : WranglerKeys.all().entrySet()) {
            String key = k.getKey();
            WranglerKeys.Scope scope = k.getValue().scope();
            boolean inEnv = rawEnv != null && rawEnv.containsKey(key);
            switch (scope) {
                case TOP_ONLY -> {
                    if (inEnv) {
                        problems.refuse("env." + envName + "." + key + ": \"" + key + "\" is only valid at the top level");
                    }
                    if (top.containsKey(key)) {
                        out.put(key, top.getValue(key));
                    }
                }
                case INHERITED -> {
                    if (inEnv) {
                        out.put(key, rawEnv.getValue(key));
                    } else if (top.containsKey(key)) {
                        out.put(key, top.getValue(key));
                    }
                }
                case NOT_INHERITED -> {
                    if (rawEnv == null) {
                        // the named environment is missing: Wrangler keeps the top-level values
                        if (top.containsKey(key)) {
                            out.put(key, top.getValue(key));
                        }
                    } else if (inEnv) {
                        out.put(key, rawEnv.getValue(key));
                    } else if (top.containsKey(key)) {
                        problems.note("note: \"" + key + "\" exists at the top level but not in env." + envName
                                + ": it is not inherited (as in Wrangler), so env." + envName + " has none; add it to env." + envName);
                    }
                }
                default -> throw new IllegalStateException(scope.toString());
            }
        }
        if (rawEnv != null) {
            for (String key : rawEnv.fieldNames()) {
                if (WranglerKeys.get(key) == null) {
                    out.put(key, rawEnv.getValue(key)); // refused by name as an unknown key
                }
            }
        }
        for (String key : top.fieldNames()) {
            if (WranglerKeys.get(key) == null && !out.containsKey(key)) {
                out.put(key, top.getValue(key));
            }
        }
        if (rawEnv == null || !rawEnv.containsKey("name")) {
            Object name = top.getValue("name");
            if (name instanceof String n && legacyEnv) {
                out.put("name", n + "-" + envName);
            }
        }
        return out;
    }
}
