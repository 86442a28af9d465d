package dev.cellgate.deploy.storage;

import dev.cellgate.core.bindings.KvNamespaceHost;
import dev.cellgate.core.bindings.KvNamespaceProvider;
import dev.cellgate.core.deploy.bindings.KvNamespaceBinding;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.time.Ticker;
import dev.cellgate.deploy.cli.Args;
import dev.cellgate.deploy.cli.Command;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * {@code deploy-tool kv key get|put|list|delete} and {@code kv bulk put|delete}, as Wrangler's
 * {@code kv} commands, against the fleet bucket: the same {@link KvNamespaceHost} a Worker's
 * binding calls, so keys, values, metadata and expirations obey Cloudflare's limits here too.
 */
public final class KvCommand implements Command {
    @Override
    public String name() {
        return "kv";
    }

    @Override
    public Set<String> valued() {
        return Set.of("namespace-id", "binding", "path", "ttl", "expiration", "metadata", "prefix");
    }

    @Override
    public String usage() {
        return """
                  kv key put KEY [VALUE] (--namespace-id ID | --binding NAME) [--path FILE] [--ttl S] [--expiration EPOCH_S] [--metadata JSON]
                  kv key get KEY (--namespace-id ID | --binding NAME)
                  kv key list (--namespace-id ID | --binding NAME) [--prefix P]
                  kv key delete KEY (--namespace-id ID | --binding NAME)
                  kv bulk put FILE | kv bulk delete FILE  (--namespace-id ID | --binding NAME)
                      A KV namespace in the fleet bucket (kv/<id>/); --binding names one of the current deployment.
                      bulk put FILE: a JSON array of {key, value, expiration?, expiration_ttl?, metadata?, base64?};
                      bulk delete FILE: a JSON array of keys.
                """;
    }

    @Override
    public int run(Args args, Tool tool) {
        List<String> p = args.positional();
        if (p.size() < 2 || !(p.get(0).equals("key") || p.get(0).equals("bulk"))) {
            throw CommandException.usage("kv: expected 'key get|put|list|delete' or 'bulk put|delete'\n" + usage());
        }
        String what = p.get(0) + " " + p.get(1);
        try (BucketStore store = tool.stores().open(args)) {
            String id = BindingTargets.resolve(args, store, "namespace-id", KvNamespaceBinding.TYPE, "namespace_id");
            KvNamespaceHost kv = (KvNamespaceHost) new KvNamespaceProvider(store, Ticker.SYSTEM)
                    .open(new EnvBinding("CLI", KvNamespaceBinding.TYPE, new JsonObject().put("namespace_id", id)), null);
            JsonObject result = new JsonObject().put("namespace_id", id);
            switch (what) {
                case "key put" -> {
                    String key = arg(p, 2, "KEY");
                    byte[] value = args.get("path") != null ? read(Path.of(args.get("path")))
                            : arg(p, 3, "VALUE (or --path FILE)").getBytes(StandardCharsets.UTF_8);
                    BindingTargets.await(kv.put(key, value, number(args, "expiration"), number(args, "ttl"), metadata(args.get("metadata"))));
                    tool.out().result(result.put("key", key).put("bytes", value.length), "wrote " + key + " (" + value.length + " bytes) to " + id + "\n");
                }
                case "key get" -> {
                    String key = arg(p, 2, "KEY");
                    KvNamespaceHost.Entry e = BindingTargets.await(kv.get(key, Double.NaN));
                    if (e == null) {
                        throw new CommandException(ExitCodes.FAILED, "key " + key + " not found in " + id);
                    }
                    ByteBuffer b = e.value();
                    byte[] bytes = new byte[b.remaining()];
                    b.get(bytes);
                    if (tool.out().json()) {
                        tool.out().result(result.put("key", key).put("value", new String(bytes, StandardCharsets.UTF_8))
                                .put("metadata", e.metadata() == null ? null : Json.decodeValue(e.metadata())), "");
                    } else {
                        tool.env().out().write(bytes, 0, bytes.length);
                        tool.env().out().flush();
                    }
                }
                case "key list" -> {
                    JsonArray keys = new JsonArray();
                    String cursor = null;
                    do {
                        JsonObject page = new JsonObject(BindingTargets.await(kv.list(args.get("prefix"), Double.NaN, cursor)));
                        page.getJsonArray("keys").forEach(k -> {
                            JsonObject o = (JsonObject) k;
                            if (o.containsKey("metadata")) {
                                o.put("metadata", Json.decodeValue(o.getString("metadata")));
                            }
                            keys.add(o);
                        });
                        cursor = page.getString("cursor");
                    } while (cursor != null);
                    StringBuilder text = new StringBuilder();
                    keys.forEach(k -> text.append(((JsonObject) k).getString("name")).append('\n'));
                    tool.out().result(result.put("keys", keys), text.toString());
                }
                case "key delete" -> {
                    String key = arg(p, 2, "KEY");
                    BindingTargets.await(kv.delete(key));
                    tool.out().result(result.put("key", key), "deleted " + key + " from " + id + "\n");
                }
                case "bulk put" -> {
                    JsonArray entries = jsonArray(Path.of(arg(p, 2, "FILE")));
                    // every entry is checked before the first is written: a bad file writes nothing
                    for (int i = 0; i < entries.size(); i++) {
                        bulkEntry(entries, i);
                    }
                    for (int i = 0; i < entries.size(); i++) {
                        JsonObject e = bulkEntry(entries, i);
                        byte[] value = e.getBoolean("base64", false) ? Base64.getDecoder().decode(e.getString("value"))
                                : e.getString("value").getBytes(StandardCharsets.UTF_8);
                        Object meta = e.getValue("metadata");
                        BindingTargets.await(kv.put(e.getString("key"), value, num(e, "expiration"), num(e, "expiration_ttl"),
                                meta == null ? null : Json.encode(meta)));
                    }
                    tool.out().result(result.put("written", entries.size()), "wrote " + entries.size() + " key(s) to " + id + "\n");
                }
                case "bulk delete" -> {
                    JsonArray keys = jsonArray(Path.of(arg(p, 2, "FILE")));
                    for (Object k : keys) {
                        if (!(k instanceof String)) {
                            throw CommandException.refused("bulk delete: every entry must be a key string (got " + k + ")");
                        }
                    }
                    for (Object k : keys) {
                        BindingTargets.await(kv.delete((String) k));
                    }
                    tool.out().result(result.put("deleted", keys.size()), "deleted " + keys.size() + " key(s) from " + id + "\n");
                }
                default -> throw CommandException.usage("kv: unknown subcommand '" + what + "'\n" + usage());
            }
            return ExitCodes.OK;
        }
    }

    private static JsonObject bulkEntry(JsonArray entries, int i) {
        if (!(entries.getValue(i) instanceof JsonObject e) || !(e.getValue("key") instanceof String) || !(e.getValue("value") instanceof String)) {
            throw CommandException.refused("bulk put: entry " + i + " needs a string \"key\" and a string \"value\" (got " + entries.getValue(i) + ")");
        }
        for (String f : e.fieldNames()) {
            if (!Set.of("key", "value", "expiration", "expiration_ttl", "metadata", "base64").contains(f)) {
                throw CommandException.refused("bulk put: entry " + i + " has the unknown field \"" + f + "\"");
            }
        }
        return e;
    }

    private static double num(JsonObject e, String f) {
        Number n = e.getNumber(f);
        return n == null ? Double.NaN : n.doubleValue();
    }

    private static String metadata(String json) {
        if (json == null) {
            return null;
        }
        try {
            return Json.encode(Json.decodeValue(json));
        } catch (DecodeException e) {
            throw CommandException.usage("--metadata must be JSON (got " + json + ")");
        }
    }

    private static double number(Args args, String option) {
        String v = args.get(option);
        if (v == null) {
            return Double.NaN;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw CommandException.usage("--" + option + " must be a whole number of seconds (got '" + v + "')");
        }
    }

    static String arg(List<String> p, int i, String what) {
        if (p.size() <= i) {
            throw CommandException.usage("missing " + what);
        }
        return p.get(i);
    }

    static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw CommandException.usage("cannot read " + file + ": " + e.getMessage());
        }
    }

    private static JsonArray jsonArray(Path file) {
        try {
            return new JsonArray(new String(read(file), StandardCharsets.UTF_8));
        } catch (DecodeException e) {
            throw CommandException.refused(file + " is not a JSON array: " + e.getMessage());
        }
    }
}
