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
 * compatibility_flags, durable_objects, migrations, vars, triggers}, and how the modules are made
 * ({@code rules, find_additional_modules, base_dir, no_bundle, upload_source_maps}: {@link Modules}),
 * and {@code assets} ({@link AssetsKey}).
 * Any other key is refused by name: silently ignoring, say, a KV binding would deploy a Worker that
 * fails at runtime.
 */
public record WranglerConfig(String name, String main, String compatibilityDate, List<String> compatibilityFlags,
                             Map<String, String> durableObjects, JsonArray migrations, Map<String, String> vars,
                             JsonObject triggers, Modules modules, AssetsKey assets) {

    public WranglerConfig(String name, String main, String compatibilityDate, List<String> compatibilityFlags,
                          Map<String, String> durableObjects, JsonArray migrations, Map<String, String> vars,
                          JsonObject triggers, Modules modules) {
        this(name, main, compatibilityDate, compatibilityFlags, durableObjects, migrations, vars, triggers, modules, null);
    }

    public static final Set<String> KEYS = Set.of("name", "main", "compatibility_date", "compatibility_flags",
            "durable_objects", "migrations", "vars", "triggers", "$schema",
            "rules", "find_additional_modules", "base_dir", "no_bundle", "upload_source_maps", "assets");

    /**
     * The module keys, as Wrangler reads them: {@code rules} (each {@code {type, globs, fallthrough}}),
     * {@code find_additional_modules}, {@code base_dir} (relative to the config), {@code no_bundle},
     * {@code upload_source_maps}. {@code rules} stays raw JSON: {@code push/ModuleRules} interprets it.
     */
    public record Modules(JsonArray rules, boolean findAdditionalModules, String baseDir, boolean noBundle,
                          boolean uploadSourceMaps) {
        public static final Modules NONE = new Modules(new JsonArray(), false, null, false, false);
    }

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
                        + "name, main, compatibility_date, compatibility_flags, durable_objects, migrations, vars, triggers, rules, "
                        + "find_additional_modules, base_dir, no_bundle, upload_source_maps, assets)");
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
        JsonArray rules = array(o, "rules", where);
        for (Object r : rules == null ? new JsonArray() : rules) {
            if (!(r instanceof JsonObject ro) || !(ro.getValue("type") instanceof String) || !(ro.getValue("globs") instanceof JsonArray)) {
                throw new IllegalArgumentException(where + ": each of \"rules\" needs a \"type\" and \"globs\" (got " + r + ")");
            }
            for (String k : ro.fieldNames()) {
                if (!Set.of("type", "globs", "fallthrough").contains(k)) {
                    throw new IllegalArgumentException(where + ": rule key \"" + k + "\" is not supported (type, globs, fallthrough)");
                }
            }
        }
        Modules modules = new Modules(rules == null ? new JsonArray() : rules, bool(o, "find_additional_modules", where),
                string(o, "base_dir", where), bool(o, "no_bundle", where), bool(o, "upload_source_maps", where));
        AssetsKey assets = o.containsKey("assets") ? AssetsKey.parse(o.getValue("assets"), where) : null;
        return new WranglerConfig(name, main, date, flags, dos, migrations, vars, (JsonObject) t, modules, assets);
    }

    private static boolean bool(JsonObject o, String key, String where) {
        Object v = o.getValue(key);
        if (v != null && !(v instanceof Boolean)) {
            throw new IllegalArgumentException(where + ": \"" + key + "\" must be true or false");
        }
        return Boolean.TRUE.equals(v);
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
