package dev.cellgate.core.deploy;

import dev.cellgate.core.deploy.bindings.AssetsConfig;
import dev.cellgate.core.deploy.bindings.Binding;
import dev.cellgate.core.deploy.bindings.Bindings;
import dev.cellgate.core.deploy.bindings.DurableObjectNamespaceBinding;
import dev.cellgate.core.deploy.bindings.PlainTextBinding;
import dev.cellgate.core.deploy.bindings.QueueConsumer;
import dev.cellgate.core.deploy.bindings.SecretTextBinding;
import dev.cellgate.core.deploy.bindings.Triggers;
import dev.cellgate.core.logic.CompatibilityFlags;
import dev.cellgate.core.spi.js.ModuleType;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code deploy/<id>/manifest.json}: everything a node needs to run a deployment. Module and
 * plugin bytes live in content-addressed blobs ({@code deploy-blobs/sha256/<hex>}).
 *
 * <p>The Worker's {@code env} is {@code bindings} (docs/storage.md, "Manifest"): one typed entry per
 * name, vars and Durable Object namespaces included. Manifests written before bindings have
 * {@code vars} and {@code durable_objects} maps instead; they decode into the same bindings. New
 * manifests still carry both maps, derived from {@code bindings}, so that a node of an older
 * version keeps running vars and Durable Objects during a rolling upgrade (such a node ignores the
 * bindings it does not know; a node of this version refuses them by name).
 *
 * @param migrations kept as given (validated by the deploy tool)
 */
public record Manifest(
        String id,
        String name,
        long createdMs,
        String main,
        List<BlobRef> modules,
        List<Binding> bindings,
        JsonArray migrations,
        String compatibilityDate,
        List<String> compatibilityFlags,
        Triggers triggers,
        List<BlobRef> plugins,
        WorkerSettings settings) {

    /** A manifest of vars and Durable Object namespaces only, as every manifest was before bindings. */
    public Manifest(String id, String name, long createdMs, String main, List<BlobRef> modules, Map<String, String> vars,
                    Map<String, String> durableObjects, JsonArray migrations, String compatibilityDate,
                    List<String> compatibilityFlags, JsonObject triggers, List<BlobRef> plugins) {
        this(id, name, createdMs, main, modules, legacyBindings(vars, durableObjects), migrations, compatibilityDate,
                compatibilityFlags, Triggers.decode(triggers), plugins, WorkerSettings.NONE);
    }

    /**
     * A file stored as a blob: its path in the bundle (or jar name), digest, size, and for a module
     * how it loads. A manifest written before module types has no {@code type}: its modules are ES
     * modules, and {@link #moduleType()} says so; plugin jars have none.
     */
    public record BlobRef(String path, String sha256, long size, ModuleType type) {
        public BlobRef(String path, String sha256, long size) {
            this(path, sha256, size, null);
        }

        /** The module's type; {@code ESModule} for a module recorded without one. */
        public ModuleType moduleType() {
            return type == null ? ModuleType.ES_MODULE : type;
        }

        JsonObject toJson() {
            JsonObject o = new JsonObject().put("path", path).put("sha256", sha256).put("size", size);
            return type == null ? o : o.put("type", type.wranglerName());
        }

        static BlobRef fromJson(JsonObject o) {
            String t = o.getString("type");
            return new BlobRef(o.getString("path"), o.getString("sha256"), o.getLong("size"),
                    t == null ? null : ModuleType.byWranglerName(t));
        }
    }

    public Manifest {
        modules = List.copyOf(modules);
        bindings = Bindings.checkUnique(bindings);
        compatibilityFlags = List.copyOf(compatibilityFlags);
        plugins = List.copyOf(plugins);
        migrations = migrations == null ? new JsonArray() : migrations.copy();
        triggers = triggers == null ? Triggers.NONE : triggers;
        settings = settings == null ? WorkerSettings.NONE : settings;
    }

    private static List<Binding> legacyBindings(Map<String, String> vars, Map<String, String> durableObjects) {
        List<Binding> out = new ArrayList<>();
        new TreeMap<>(vars).forEach((k, v) -> out.add(new PlainTextBinding(k, v)));
        new TreeMap<>(durableObjects).forEach((k, v) -> out.add(new DurableObjectNamespaceBinding(k, v)));
        return out;
    }

    /** The {@code plain_text} bindings: name to text. */
    public Map<String, String> vars() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Binding b : bindings) {
            if (b instanceof PlainTextBinding p) {
                out.put(p.name(), p.text());
            }
        }
        return out;
    }

    /** The Durable Object namespace bindings: name to class. */
    public Map<String, String> durableObjects() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Binding b : bindings) {
            if (b instanceof DurableObjectNamespaceBinding d) {
                out.put(d.name(), d.className());
            }
        }
        return out;
    }

    /** The names of the Worker's secrets (their values are in {@code secrets/<name>/}). */
    public List<String> secretNames() {
        return bindings.stream().filter(b -> b instanceof SecretTextBinding).map(Binding::name).toList();
    }

    /** The same deployment under a new id and time, with other bindings (a secret change is a new version). */
    public Manifest withBindings(String newId, long nowMs, List<Binding> newBindings) {
        return new Manifest(newId, name, nowMs, main, modules, newBindings, migrations, compatibilityDate, compatibilityFlags,
                triggers, plugins, settings);
    }

    public byte[] encode() {
        JsonObject dos = new JsonObject();
        durableObjects().forEach(dos::put);
        JsonObject v = new JsonObject();
        vars().forEach(v::put);
        JsonObject o = new JsonObject()
                .put("id", id).put("name", name).put("created_ms", createdMs).put("main", main)
                .put("modules", new JsonArray(modules.stream().map(BlobRef::toJson).toList()))
                .put("bindings", Bindings.encode(bindings))
                // for nodes older than "bindings" (see the class comment); ignored when "bindings" is there
                .put("vars", v)
                .put("durable_objects", dos)
                .put("migrations", migrations)
                .put("compatibility_date", compatibilityDate)
                .put("compatibility_flags", new JsonArray(compatibilityFlags))
                .put("triggers", triggers.toJson())
                .put("plugins", new JsonArray(plugins.stream().map(BlobRef::toJson).toList()));
        if (settings.assets() != null) {
            o.put("assets", settings.assets().toJson());
        }
        if (!settings.queueConsumers().isEmpty()) {
            o.put("queue_consumers", QueueConsumer.encode(settings.queueConsumers()));
        }
        if (settings.cpuMs() != null) {
            o.put("limits", new JsonObject().put("cpu_ms", settings.cpuMs()));
        }
        if (settings.environment() != null) {
            o.put("environment", settings.environment());
        }
        if (!settings.hosting().isEmpty()) {
            o.put("hosting", settings.hosting());
        }
        return o.encodePrettily().getBytes(StandardCharsets.UTF_8);
    }

    public static Manifest decode(byte[] bytes) {
        JsonObject o;
        try {
            o = new JsonObject(new String(bytes, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            throw new MalformedManifestException("manifest is not a JSON object: " + e.getMessage());
        }
        try {
            List<BlobRef> modules = new ArrayList<>();
            o.getJsonArray("modules").forEach(m -> modules.add(BlobRef.fromJson((JsonObject) m)));
            List<BlobRef> plugins = new ArrayList<>();
            o.getJsonArray("plugins", new JsonArray()).forEach(m -> plugins.add(BlobRef.fromJson((JsonObject) m)));
            List<Binding> bindings;
            if (o.containsKey("bindings")) {
                bindings = Bindings.decode(o.getJsonArray("bindings"));
            } else {
                Map<String, String> vars = new LinkedHashMap<>();
                o.getJsonObject("vars", new JsonObject()).forEach(e -> vars.put(e.getKey(), String.valueOf(e.getValue())));
                Map<String, String> dos = new LinkedHashMap<>();
                o.getJsonObject("durable_objects", new JsonObject()).forEach(e -> dos.put(e.getKey(), (String) e.getValue()));
                bindings = legacyBindings(vars, dos);
            }
            List<String> flags = new ArrayList<>();
            o.getJsonArray("compatibility_flags", new JsonArray()).forEach(f -> flags.add((String) f));
            refuseFlagsNotActedOn(o.getString("id"), flags);
            Long cpuMs = cpuMs(o.getValue("limits"));
            WorkerSettings settings = new WorkerSettings(
                    o.containsKey("assets") ? AssetsConfig.decode(o.getValue("assets")) : null,
                    QueueConsumer.decode(o.getJsonArray("queue_consumers", new JsonArray())), cpuMs, o.getString("environment"),
                    o.getJsonObject("hosting"));
            return new Manifest(o.getString("id"), o.getString("name"), o.getLong("created_ms"), o.getString("main"), modules,
                    bindings, o.getJsonArray("migrations"), o.getString("compatibility_date"), flags,
                    Triggers.decode(o.getValue("triggers")), plugins, settings);
        } catch (MalformedManifestException e) {
            throw e;
        } catch (ClassCastException | NullPointerException | IllegalArgumentException e) {
            throw new MalformedManifestException("manifest is malformed: " + e.getMessage());
        }
    }

    /**
     * {@code limits}: only {@code cpu_ms}, checked as deploy-tool checks it. Anything else (a
     * hand-written manifest, a newer deploy-tool) is refused by name: the node would run the
     * deployment with that limit ignored.
     */
    private static Long cpuMs(Object limits) {
        if (limits == null) {
            return null;
        }
        if (!(limits instanceof JsonObject l)) {
            throw new MalformedManifestException("manifest limits must be an object ({\"cpu_ms\": N}), got " + limits);
        }
        for (String k : l.fieldNames()) {
            if (!k.equals("cpu_ms")) {
                throw new MalformedManifestException("manifest limits." + k + " is not acted on by this node (it knows limits.cpu_ms only)");
            }
        }
        if (!l.containsKey("cpu_ms")) {
            return null;
        }
        String problem = dev.cellgate.core.logic.WorkerCpuLimit.problem(l.getValue("cpu_ms"));
        if (problem != null) {
            throw new MalformedManifestException("manifest " + problem);
        }
        return ((Number) l.getValue("cpu_ms")).longValue();
    }

    /**
     * A flag the runtime does not act on (from a deploy-tool older than the push's refusal, or a
     * hand-written manifest) is refused, as deploy-tool refuses it: running the deployment would
     * silently ignore what the flag asks for.
     */
    private static void refuseFlagsNotActedOn(String id, List<String> flags) {
        List<String> unknown = CompatibilityFlags.notActedOn(flags);
        if (!unknown.isEmpty()) {
            throw new MalformedManifestException("deployment " + id + " is refused: "
                    + String.join("; ", unknown.stream().map(CompatibilityFlags::notActedOnMessage).toList()));
        }
    }
}
