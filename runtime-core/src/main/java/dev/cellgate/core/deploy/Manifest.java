package dev.cellgate.core.deploy;

import dev.cellgate.core.spi.js.ModuleType;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code deploy/<id>/manifest.json}: everything a node needs to run a deployment. Module and
 * plugin bytes live in content-addressed blobs ({@code deploy-blobs/sha256/<hex>}).
 *
 * @param migrations and {@code triggers} are kept as given (validated by the deploy tool)
 */
public record Manifest(
        String id,
        String name,
        long createdMs,
        String main,
        List<BlobRef> modules,
        Map<String, String> vars,
        Map<String, String> durableObjects,
        JsonArray migrations,
        String compatibilityDate,
        List<String> compatibilityFlags,
        JsonObject triggers,
        List<BlobRef> plugins) {

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
        vars = Map.copyOf(vars);
        durableObjects = Map.copyOf(durableObjects);
        compatibilityFlags = List.copyOf(compatibilityFlags);
        plugins = List.copyOf(plugins);
        migrations = migrations == null ? new JsonArray() : migrations.copy();
        triggers = triggers == null ? new JsonObject() : triggers.copy();
    }

    public byte[] encode() {
        JsonObject dos = new JsonObject();
        durableObjects.forEach(dos::put);
        JsonObject v = new JsonObject();
        vars.forEach(v::put);
        return new JsonObject()
                .put("id", id).put("name", name).put("created_ms", createdMs).put("main", main)
                .put("modules", new JsonArray(modules.stream().map(BlobRef::toJson).toList()))
                .put("vars", v)
                .put("durable_objects", dos)
                .put("migrations", migrations)
                .put("compatibility_date", compatibilityDate)
                .put("compatibility_flags", new JsonArray(compatibilityFlags))
                .put("triggers", triggers)
                .put("plugins", new JsonArray(plugins.stream().map(BlobRef::toJson).toList()))
                .encodePrettily().getBytes(StandardCharsets.UTF_8);
    }

    public static Manifest decode(byte[] bytes) {
        JsonObject o;
        try {
            o = new JsonObject(new String(bytes, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("manifest is not a JSON object: " + e.getMessage());
        }
        try {
            List<BlobRef> modules = new ArrayList<>();
            o.getJsonArray("modules").forEach(m -> modules.add(BlobRef.fromJson((JsonObject) m)));
            List<BlobRef> plugins = new ArrayList<>();
            o.getJsonArray("plugins", new JsonArray()).forEach(m -> plugins.add(BlobRef.fromJson((JsonObject) m)));
            Map<String, String> vars = new LinkedHashMap<>();
            o.getJsonObject("vars", new JsonObject()).forEach(e -> vars.put(e.getKey(), String.valueOf(e.getValue())));
            Map<String, String> dos = new LinkedHashMap<>();
            o.getJsonObject("durable_objects", new JsonObject()).forEach(e -> dos.put(e.getKey(), (String) e.getValue()));
            List<String> flags = new ArrayList<>();
            o.getJsonArray("compatibility_flags", new JsonArray()).forEach(f -> flags.add((String) f));
            return new Manifest(o.getString("id"), o.getString("name"), o.getLong("created_ms"), o.getString("main"), modules,
                    vars, dos, o.getJsonArray("migrations"), o.getString("compatibility_date"), flags,
                    o.getJsonObject("triggers"), plugins);
        } catch (ClassCastException | NullPointerException | IllegalArgumentException e) {
            throw new IllegalArgumentException("manifest is malformed: " + e.getMessage());
        }
    }
}
