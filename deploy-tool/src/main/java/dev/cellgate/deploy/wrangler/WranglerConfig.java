package dev.cellgate.deploy.wrangler;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The subset of a Wrangler config cellgate runs: {@code name, main, compatibility_date,
 * compatibility_flags, durable_objects, migrations, vars, triggers}. Any other key is refused by
 * name: silently ignoring, say, a KV binding would deploy a Worker that fails at runtime.
 */
public record WranglerConfig(String name, String main, String compatibilityDate, List<String> compatibilityFlags,
                             Map<String, String> durableObjects, JsonArray migrations, Map<String, String> vars,
                             JsonObject triggers) {

    public static final Set<String> KEYS = Set.of("name", "main", "compatibility_date", "compatibility_flags",
            "durable_objects", "migrations", "vars", "triggers", "$schema");

    public static WranglerConfig read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        }
        JsonObject o;
        try {
            o = new JsonObject(Jsonc.strip(text));
        } catch (DecodeException | IllegalArgumentException e) {
            throw new IllegalArgumentException(file + " is not valid JSON(C): " + e.getMessage());
        }
        return parse(o, file.getFileName().toString());
    }

    public static WranglerConfig parse(JsonObject o, String where) {
        for (String k : o.fieldNames()) {
            if (!KEYS.contains(k)) {
                throw new IllegalArgumentException(where + ": key \"" + k + "\" is not supported by cellgate (supported: "
                        + "name, main, compatibility_date, compatibility_flags, durable_objects, migrations, vars, triggers)");
            }
        }
        String name = string(o, "name", where);
        if (name != null && !name.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,62}")) {
            throw new IllegalArgumentException(where + ": \"name\" must be letters, digits, - and _ (got '" + name + "')");
        }
        String main = string(o, "main", where);
        String date = string(o, "compatibility_date", where);
        if (date != null && !date.matches("\\d{4}-\\d{2}-\\d{2}")) {
            throw new IllegalArgumentException(where + ": \"compatibility_date\" must be YYYY-MM-DD (got '" + date + "')");
        }
        List<String> flags = new ArrayList<>();
        JsonArray fa = array(o, "compatibility_flags", where);
        if (fa != null) {
            for (Object f : fa) {
                if (!(f instanceof String s)) {
                    throw new IllegalArgumentException(where + ": \"compatibility_flags\" must be strings");
                }
                flags.add(s);
            }
        }
        Map<String, String> dos = new LinkedHashMap<>();
        Object dobj = o.getValue("durable_objects");
        if (dobj != null) {
            if (!(dobj instanceof JsonObject d)) {
                throw new IllegalArgumentException(where + ": \"durable_objects\" must be an object with \"bindings\"");
            }
            for (String k : d.fieldNames()) {
                if (!k.equals("bindings")) {
                    throw new IllegalArgumentException(where + ": durable_objects key \"" + k + "\" is not supported (only \"bindings\")");
                }
            }
            JsonArray bindings = array(d, "bindings", where + " durable_objects");
            for (Object b : bindings == null ? new JsonArray() : bindings) {
                if (!(b instanceof JsonObject bo)) {
                    throw new IllegalArgumentException(where + ": each durable_objects binding must be an object");
                }
                for (String k : bo.fieldNames()) {
                    if (!Set.of("name", "class_name").contains(k)) {
                        throw new IllegalArgumentException(where + ": durable_objects binding key \"" + k
                                + "\" is not supported (script_name bindings to other Workers are not)");
                    }
                }
                String bn = string(bo, "name", where);
                String cn = string(bo, "class_name", where);
                if (bn == null || cn == null) {
                    throw new IllegalArgumentException(where + ": a durable_objects binding needs \"name\" and \"class_name\"");
                }
                if (dos.put(bn, cn) != null) {
                    throw new IllegalArgumentException(where + ": durable_objects binding \"" + bn + "\" is declared twice");
                }
            }
        }
        Map<String, String> vars = new LinkedHashMap<>();
        Object vobj = o.getValue("vars");
        if (vobj != null) {
            if (!(vobj instanceof JsonObject v)) {
                throw new IllegalArgumentException(where + ": \"vars\" must be an object");
            }
            for (Map.Entry<String, Object> e : v) {
                if (!(e.getValue() instanceof String s)) {
                    throw new IllegalArgumentException(where + ": vars." + e.getKey()
                            + " must be a string (JSON-valued vars are not supported yet)");
                }
                vars.put(e.getKey(), s);
            }
        }
        JsonArray migrations = array(o, "migrations", where);
        Object t = o.getValue("triggers");
        if (t != null && !(t instanceof JsonObject)) {
            throw new IllegalArgumentException(where + ": \"triggers\" must be an object");
        }
        return new WranglerConfig(name, main, date, flags, dos, migrations, vars, (JsonObject) t);
    }

    private static String string(JsonObject o, String key, String where) {
        Object v = o.getValue(key);
        if (v != null && !(v instanceof String)) {
            throw new IllegalArgumentException(where + ": \"" + key + "\" must be a string");
        }
        return (String) v;
    }

    private static JsonArray array(JsonObject o, String key, String where) {
        Object v = o.getValue(key);
        if (v != null && !(v instanceof JsonArray)) {
            throw new IllegalArgumentException(where + ": \"" + key + "\" must be an array");
        }
        return (JsonArray) v;
    }
}
