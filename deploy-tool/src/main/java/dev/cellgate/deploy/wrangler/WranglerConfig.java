package dev.cellgate.deploy.wrangler;

import dev.cellgate.core.deploy.bindings.Binding;
import dev.cellgate.core.deploy.bindings.D1DatabaseBinding;
import dev.cellgate.core.deploy.bindings.QueueConsumer;
import dev.cellgate.core.deploy.bindings.KvNamespaceBinding;
import dev.cellgate.core.deploy.bindings.R2BucketBinding;
import dev.cellgate.core.logic.CompatibilityFlags;
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
 * A Wrangler config (wrangler.jsonc, wrangler.json or wrangler.toml), for the top level or one
 * environment ({@link Environments}), as cellgate runs it. Every key is in one class of
 * {@link WranglerKeys}: implemented keys are read here; hosting-metadata keys are kept in
 * {@code hosting} with one note each; refused and unknown keys are refused by name — ALL of them,
 * with every malformed value, in one {@link ConfigRefusedException}, so one push tells a project
 * everything it must change.
 *
 * @param environment the {@code --env} it was read for (null: the top level)
 * @param notes what the user should know and nothing refuses (one line each, "note: …")
 * @param requiredSecrets {@code secrets.required}: the secrets a push checks are set, in the order written
 * @param cpuMs {@code limits.cpu_ms}: the CPU budget of each of the Worker's events (null: the node's {@code CELLD_CPU_MS})
 * @param queueConsumers {@code queues.consumers} (its producers are among {@code bindings}: docs/queues.md)
 */
public record WranglerConfig(String name, String main, String compatibilityDate, List<String> compatibilityFlags,
                             Map<String, String> durableObjects, JsonArray migrations, Map<String, String> vars,
                             JsonObject triggers, Modules modules, Bundling bundling, Build build, JsonObject hosting,
                             String environment, List<String> notes, List<Binding> bindings, AssetsKey assets,
                             List<String> requiredSecrets, Long cpuMs, List<QueueConsumer> queueConsumers) {

    /** The keys that reach esbuild: {@code define, alias, tsconfig, minify, keep_names, jsx_factory, jsx_fragment}. */
    public record Bundling(Map<String, String> define, Map<String, String> alias, String tsconfig, boolean minify,
                           boolean keepNames, String jsxFactory, String jsxFragment) {
        public static final Bundling NONE = new Bundling(Map.of(), Map.of(), null, false, true, null, null);

        /** The keys set that only a bundler honours (noted when nothing is bundled). */
        public List<String> set() {
            List<String> out = new ArrayList<>();
            if (!define.isEmpty()) {
                out.add("define");
            }
            if (!alias.isEmpty()) {
                out.add("alias");
            }
            if (tsconfig != null) {
                out.add("tsconfig");
            }
            if (minify) {
                out.add("minify");
            }
            if (jsxFactory != null) {
                out.add("jsx_factory");
            }
            if (jsxFragment != null) {
                out.add("jsx_fragment");
            }
            return out;
        }
    }

    /** {@code build}: the command run before bundling, in {@code cwd} (relative to the config; null: its directory). */
    /**
     * @param watchDirs {@code build.watch_dir} (one string or several), relative to the config: what
     *                  {@code deploy-tool dev} watches instead of the whole project; empty when unset
     */
    public record Build(String command, String cwd, List<String> watchDirs) {
        public Build {
            watchDirs = List.copyOf(watchDirs);
        }

        public Build(String command, String cwd) {
            this(command, cwd, List.of());
        }
    }

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
        return read(file, null);
    }

    /** Reads {@code file} (TOML when it ends in {@code .toml}, else JSON with comments) for environment {@code env}. */
    public static WranglerConfig read(Path file, String env) {
        return parse(raw(file), file.getFileName().toString(), env);
    }

    /** {@code file} as the JSON object Wrangler reads, before any check (for keys only a CLI command reads, e.g. D1's migrations_dir). */
    public static JsonObject raw(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        }
        JsonObject o;
        if (file.getFileName().toString().endsWith(".toml")) {
            try {
                o = Toml.parse(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + " is not valid TOML: " + e.getMessage());
            }
        } else {
            try {
                o = new JsonObject(Jsonc.strip(text));
            } catch (DecodeException | IllegalArgumentException e) {
                throw new IllegalArgumentException(file + " is not valid JSON(C): " + e.getMessage());
            }
        }
        return o;
    }

    public static WranglerConfig parse(JsonObject o, String where) {
        return parse(o, where, null);
    }

    /** @throws ConfigRefusedException naming every refused key and every malformed value */
    public static WranglerConfig parse(JsonObject raw, String where, String env) {
        Problems problems = new Problems();
        JsonObject o = Environments.select(raw, env, problems);
        JsonObject hosting = new JsonObject();
        for (String k : o.fieldNames()) {
            WranglerKeys.Key key = WranglerKeys.get(k);
            if (key == null) {
                problems.refuse("key \"" + k + "\" is not supported by cellgate (it is not in Wrangler's configuration schema;"
                        + " docs/configuration.md lists every key)");
            } else if (key.keyClass() == WranglerKeys.KeyClass.REFUSED) {
                problems.refuse("key \"" + k + "\" is not supported by cellgate: " + key.reason());
            } else if (key.keyClass() == WranglerKeys.KeyClass.METADATA) {
                hosting.put(k, o.getValue(k));
                problems.note("note: " + k + " has no effect on a self-hosted fleet (" + key.reason() + ")");
            }
        }
        WranglerConfig c = problems.attempt(() -> implemented(o, where, env, hosting, problems));
        problems.throwIfRefused(where + (env == null ? "" : " (env " + env + ")"));
        return c.withNotes(problems.notes());
    }

    private WranglerConfig withNotes(List<String> n) {
        return new WranglerConfig(name, main, compatibilityDate, compatibilityFlags, durableObjects, migrations, vars, triggers,
                modules, bundling, build, hosting, environment, List.copyOf(n), bindings, assets, requiredSecrets, cpuMs, queueConsumers);
    }

    /** The implemented keys; each malformed value is one refusal, and all are collected. */
    private static WranglerConfig implemented(JsonObject o, String where, String env, JsonObject hosting, Problems problems) {
        String name = problems.attempt(() -> {
            String n = string(o, "name", where);
            if (n != null && !n.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,62}")) {
                throw new IllegalArgumentException("\"name\" must be letters, digits, - and _ (got '" + n + "')");
            }
            return n;
        });
        String main = problems.attempt(() -> string(o, "main", where));
        String date = problems.attempt(() -> {
            String d = string(o, "compatibility_date", where);
            if (d != null && !d.matches("\\d{4}-\\d{2}-\\d{2}")) {
                throw new IllegalArgumentException("\"compatibility_date\" must be YYYY-MM-DD (got '" + d + "')");
            }
            return d;
        });
        List<String> flags = problems.attempt(() -> strings(o, "compatibility_flags"));
        // a flag the runtime does not read would be accepted and ignored: refused, each by name
        if (flags != null) {
            CompatibilityFlags.notActedOn(flags).forEach(f -> problems.refuse(CompatibilityFlags.notActedOnMessage(f)));
        }
        Map<String, String> dos = problems.attempt(() -> durableObjects(o, where));
        Map<String, String> vars = problems.attempt(() -> stringMap(o, "vars", "JSON-valued vars are not supported yet"));
        JsonArray migrations = problems.attempt(() -> array(o, "migrations", where));
        JsonObject triggers = problems.attempt(() -> TriggersKey.parse(o.getValue("triggers"), problems));
        Modules modules = problems.attempt(() -> modules(o, where));
        Bundling bundling = problems.attempt(() -> new Bundling(
                stringMap(o, "define", "a define value is a JavaScript expression, written as a string"),
                stringMap(o, "alias", "an alias maps a module name to a path or package name"),
                string(o, "tsconfig", where), bool(o, "minify", where), !Boolean.FALSE.equals(boolOrNull(o, "keep_names", where)),
                string(o, "jsx_factory", where), string(o, "jsx_fragment", where)));
        Build build = problems.attempt(() -> build(o, problems));
        List<Binding> bindings = problems.attempt(() -> {
            List<Binding> all = new ArrayList<>(storageBindings(o, where));
            all.addAll(ServicesKey.parse(o.getValue("services"), where, problems));
            all.addAll(WorkflowsKey.parse(o.getValue("workflows"), where, name));
            return all;
        });
        QueuesKey.Parsed queues = problems.attempt(() -> QueuesKey.parse(o.getValue("queues"), problems));
        AssetsKey assets = problems.attempt(() -> o.containsKey("assets") ? AssetsKey.parse(o.getValue("assets"), where) : null);
        List<String> requiredSecrets = problems.attempt(() -> requiredSecrets(o));
        Long cpuMs = problems.attempt(() -> LimitsKey.parse(o.getValue("limits"), problems));
        if (problems.refusals().isEmpty()) {
            return new WranglerConfig(name, main, date, flags, dos, migrations, vars, triggers, modules, bundling, build, hosting,
                    env, List.of(), withProducers(bindings, queues), assets, requiredSecrets, cpuMs, queues.consumers());
        }
        return null;
    }

    private static List<Binding> withProducers(List<Binding> bindings, QueuesKey.Parsed queues) {
        List<Binding> all = new ArrayList<>(bindings);
        all.addAll(queues.producers());
        return all;
    }

    /** {@code secrets: {required: [NAME…]}}: names only (values are never in a config: deploy-tool secret put). */
    private static List<String> requiredSecrets(JsonObject o) {
        JsonObject s = section(o, "secrets", List.of("required"));
        if (s == null) {
            return List.of();
        }
        List<String> names = strings(s, "required");
        List<String> bad = dev.cellgate.core.logic.SecretNames.problems(names);
        if (!bad.isEmpty()) {
            throw new IllegalArgumentException("secrets.required: " + String.join("; ", bad));
        }
        return List.copyOf(new java.util.LinkedHashSet<>(names));
    }

    private static Map<String, String> durableObjects(JsonObject o, String where) {
        Map<String, String> dos = new LinkedHashMap<>();
        JsonObject d = section(o, "durable_objects", List.of("bindings"));
        if (d == null) {
            return dos;
        }
        JsonArray bindings = array(d, "bindings", where + " durable_objects");
        for (Object b : bindings == null ? new JsonArray() : bindings) {
            if (!(b instanceof JsonObject bo)) {
                throw new IllegalArgumentException("each durable_objects binding must be an object");
            }
            for (String k : bo.fieldNames()) {
                if (!Set.of("name", "class_name").contains(k)) {
                    throw new IllegalArgumentException("durable_objects binding key \"" + k
                            + "\" is not supported (script_name bindings to other Workers are not)");
                }
            }
            String bn = string(bo, "name", where);
            String cn = string(bo, "class_name", where);
            if (bn == null || cn == null) {
                throw new IllegalArgumentException("a durable_objects binding needs \"name\" and \"class_name\"");
            }
            if (dos.put(bn, cn) != null) {
                throw new IllegalArgumentException("durable_objects binding \"" + bn + "\" is declared twice");
            }
        }
        return dos;
    }

    private static Modules modules(JsonObject o, String where) {
        JsonArray rules = array(o, "rules", where);
        for (Object r : rules == null ? new JsonArray() : rules) {
            if (!(r instanceof JsonObject ro) || !(ro.getValue("type") instanceof String) || !(ro.getValue("globs") instanceof JsonArray)) {
                throw new IllegalArgumentException("each of \"rules\" needs a \"type\" and \"globs\" (got " + r + ")");
            }
            for (String k : ro.fieldNames()) {
                if (!Set.of("type", "globs", "fallthrough").contains(k)) {
                    throw new IllegalArgumentException("rule key \"" + k + "\" is not supported (type, globs, fallthrough)");
                }
            }
        }
        return new Modules(rules == null ? new JsonArray() : rules, bool(o, "find_additional_modules", where),
                string(o, "base_dir", where), bool(o, "no_bundle", where), bool(o, "upload_source_maps", where));
    }

    /** {@code build}: {@code command} and {@code cwd} are run; {@code watch_dir} is what {@code dev} watches (a note for push). */
    private static Build build(JsonObject o, Problems problems) {
        JsonObject bo = section(o, "build", List.of("command", "cwd", "watch_dir"));
        if (bo == null) {
            return null;
        }
        if (bo.containsKey("watch_dir")) {
            problems.note("note: build.watch_dir has no effect on push (it tells deploy-tool dev what to watch; push builds once)");
        }
        List<String> watchDirs = watchDirs(bo.getValue("watch_dir"));
        String command = string(bo, "command", "build");
        String cwd = string(bo, "cwd", "build");
        if (command == null) {
            if (cwd != null) {
                throw new IllegalArgumentException("build.cwd is set but build.command is not");
            }
            return null;
        }
        return new Build(command, cwd, watchDirs);
    }

    /** {@code build.watch_dir}: a string or an array of strings, as Wrangler takes it. */
    private static List<String> watchDirs(Object v) {
        if (v == null) {
            return List.of();
        }
        if (v instanceof String s && !s.isBlank()) {
            return List.of(s);
        }
        if (v instanceof JsonArray a && !a.isEmpty() && a.stream().allMatch(x -> x instanceof String s && !s.isBlank())) {
            return a.stream().map(String.class::cast).toList();
        }
        throw new IllegalArgumentException("build.watch_dir must be a directory or a non-empty array of directories, got " + v);
    }

    /** An object-valued key whose own keys are only {@code allowed}; null when absent. */
    private static JsonObject section(JsonObject o, String key, List<String> allowed) {
        Object v = o.getValue(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof JsonObject s)) {
            throw new IllegalArgumentException("\"" + key + "\" must be an object (" + String.join(", ", allowed) + ")");
        }
        for (String k : s.fieldNames()) {
            if (!allowed.contains(k)) {
                throw new IllegalArgumentException(key + " key \"" + k + "\" is not supported (" + String.join(", ", allowed) + ")");
            }
        }
        return s;
    }

    private static List<String> strings(JsonObject o, String key) {
        List<String> out = new ArrayList<>();
        JsonArray a = array(o, key, "");
        for (Object f : a == null ? new JsonArray() : a) {
            if (!(f instanceof String s)) {
                throw new IllegalArgumentException("\"" + key + "\" must be strings");
            }
            out.add(s);
        }
        return out;
    }

    private static Map<String, String> stringMap(JsonObject o, String key, String why) {
        Map<String, String> out = new LinkedHashMap<>();
        Object v = o.getValue(key);
        if (v == null) {
            return out;
        }
        if (!(v instanceof JsonObject m)) {
            throw new IllegalArgumentException("\"" + key + "\" must be an object");
        }
        for (Map.Entry<String, Object> e : m) {
            if (!(e.getValue() instanceof String s)) {
                throw new IllegalArgumentException(key + "." + e.getKey() + " must be a string (" + why + ")");
            }
            out.put(e.getKey(), s);
        }
        return out;
    }

    private static Boolean boolOrNull(JsonObject o, String key, String where) {
        return o.getValue(key) == null ? null : bool(o, key, where);
    }

    private static boolean bool(JsonObject o, String key, String where) {
        Object v = o.getValue(key);
        if (v != null && !(v instanceof Boolean)) {
            throw new IllegalArgumentException("\"" + key + "\" must be true or false");
        }
        return Boolean.TRUE.equals(v);
    }

    private static String string(JsonObject o, String key, String where) {
        Object v = o.getValue(key);
        if (v != null && !(v instanceof String)) {
            throw new IllegalArgumentException("\"" + key + "\" must be a string");
        }
        return (String) v;
    }

    private static JsonArray array(JsonObject o, String key, String where) {
        Object v = o.getValue(key);
        if (v != null && !(v instanceof JsonArray)) {
            throw new IllegalArgumentException("\"" + key + "\" must be an array");
        }
        return (JsonArray) v;
    }

    /**
     * {@code kv_namespaces} ({@code binding, id}), {@code r2_buckets} ({@code binding, bucket_name,
     * jurisdiction}) and {@code d1_databases} ({@code binding, database_id, database_name}) as manifest bindings. {@code preview_id} / {@code preview_bucket_name} name the
     * namespace {@code wrangler dev} uses and mean nothing to a deploy: accepted, not used.
     */
    static List<Binding> storageBindings(JsonObject o, String where) {
        List<Binding> out = new ArrayList<>();
        JsonArray kv = array(o, "kv_namespaces", where);
        for (Object e : kv == null ? new JsonArray() : kv) {
            JsonObject b = entry(e, "kv_namespaces", Set.of("binding", "id", "preview_id"), where);
            String name = string(b, "binding", where);
            String id = string(b, "id", where);
            if (name == null || id == null) {
                throw new IllegalArgumentException(where + ": each of \"kv_namespaces\" needs \"binding\" and \"id\" (got " + b + ")");
            }
            out.add(new KvNamespaceBinding(name, id));
        }
        JsonArray r2 = array(o, "r2_buckets", where);
        for (Object e : r2 == null ? new JsonArray() : r2) {
            JsonObject b = entry(e, "r2_buckets", Set.of("binding", "bucket_name", "preview_bucket_name", "jurisdiction"), where);
            String name = string(b, "binding", where);
            String bucket = string(b, "bucket_name", where);
            if (name == null || bucket == null) {
                throw new IllegalArgumentException(where + ": each of \"r2_buckets\" needs \"binding\" and \"bucket_name\" (got " + b + ")");
            }
            out.add(new R2BucketBinding(name, bucket, string(b, "jurisdiction", where)));
        }
        JsonArray d1 = array(o, "d1_databases", where);
        for (Object e : d1 == null ? new JsonArray() : d1) {
            // preview_database_id names what `wrangler dev --remote` uses; migrations_dir/_table are read by
            // `deploy-tool d1 migrations` (docs/d1.md): none of them changes what the Worker runs.
            JsonObject b = entry(e, "d1_databases", Set.of("binding", "database_name", "database_id", "preview_database_id",
                    "migrations_dir", "migrations_table"), where);
            String name = string(b, "binding", where);
            String id = string(b, "database_id", where);
            String dbName = string(b, "database_name", where);
            string(b, "migrations_dir", where);
            string(b, "migrations_table", where);
            if (name == null || (id == null && dbName == null)) {
                throw new IllegalArgumentException(where + ": each of \"d1_databases\" needs \"binding\" and a \"database_id\" or \"database_name\" (got " + b + ")");
            }
            out.add(new D1DatabaseBinding(name, dbName, id));
        }
        return out;
    }

    private static JsonObject entry(Object e, String key, Set<String> fields, String where) {
        if (!(e instanceof JsonObject b)) {
            throw new IllegalArgumentException(where + ": each of \"" + key + "\" must be an object");
        }
        for (String f : b.fieldNames()) {
            if (!fields.contains(f)) {
                throw new IllegalArgumentException(where + ": " + key + " key \"" + f + "\" is not supported (" + String.join(", ", new java.util.TreeSet<>(fields)) + ")");
            }
        }
        return b;
    }

}
