package dev.cellgate.deploy.storage;

import dev.cellgate.core.bindings.R2BucketHost;
import dev.cellgate.core.bindings.R2BucketProvider;
import dev.cellgate.core.deploy.bindings.R2BucketBinding;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.core.time.Ticker;
import dev.cellgate.deploy.cli.Args;
import dev.cellgate.deploy.cli.Command;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code deploy-tool r2 object get|put|delete BUCKET/KEY} and {@code r2 object list BUCKET}, as
 * Wrangler's {@code r2 object} commands, against the fleet bucket ({@code r2/<bucket>/}) through the
 * same {@link R2BucketHost} a Worker's binding calls.
 */
public final class R2Command implements Command {
    @Override
    public String name() {
        return "r2";
    }

    @Override
    public Set<String> valued() {
        return Set.of("file", "content-type", "cache-control", "content-disposition", "content-encoding", "content-language", "prefix");
    }

    @Override
    public String usage() {
        return """
                  r2 object put BUCKET/KEY --file FILE [--content-type T] [--cache-control C] [--content-disposition D]
                                [--content-encoding E] [--content-language L]
                  r2 object get BUCKET/KEY [--file FILE]      (stdout without --file)
                  r2 object delete BUCKET/KEY
                  r2 object list BUCKET [--prefix P]
                      An R2 bucket's objects in the fleet bucket (r2/<bucket>/).
                """;
    }

    @Override
    public int run(Args args, Tool tool) {
        List<String> p = args.positional();
        if (p.size() < 3 || !p.get(0).equals("object")) {
            throw CommandException.usage("r2: expected 'object get|put|delete BUCKET/KEY' or 'object list BUCKET'\n" + usage());
        }
        String op = p.get(1);
        String target = p.get(2);
        int slash = target.indexOf('/');
        String bucketName = op.equals("list") ? target : slash < 0 ? null : target.substring(0, slash);
        String key = op.equals("list") || slash < 0 ? null : target.substring(slash + 1);
        if (bucketName == null) {
            throw CommandException.usage("r2 object " + op + ": expected BUCKET/KEY (got '" + target + "')");
        }
        try (BucketStore store = tool.stores().open(args)) {
            EnvBinding binding = new EnvBinding("CLI", R2BucketBinding.TYPE, new JsonObject().put("bucket_name", bucketName));
            R2BucketProvider provider = new R2BucketProvider(store, Ticker.SYSTEM);
            try {
                dev.cellgate.core.spi.js.BindingRegistry.of(provider).require(binding);
            } catch (ScriptLoadException e) {
                throw CommandException.refused(e.getMessage());
            }
            R2BucketHost r2 = (R2BucketHost) provider.open(binding, null);
            JsonObject result = new JsonObject().put("bucket", bucketName);
            switch (op) {
                case "put" -> {
                    String file = args.get("file");
                    if (file == null) {
                        throw CommandException.usage("r2 object put needs --file FILE");
                    }
                    byte[] bytes = KvCommand.read(Path.of(file));
                    JsonObject http = new JsonObject();
                    put(http, "contentType", args.get("content-type"));
                    put(http, "cacheControl", args.get("cache-control"));
                    put(http, "contentDisposition", args.get("content-disposition"));
                    put(http, "contentEncoding", args.get("content-encoding"));
                    put(http, "contentLanguage", args.get("content-language"));
                    JsonObject meta = new JsonObject(BindingTargets.await(r2.put(key, bytes, http.encode(), null, null, null)));
                    tool.out().result(result.put("key", key).put("size", meta.getLong("size")).put("etag", meta.getString("etag")),
                            "uploaded " + bucketName + "/" + key + " (" + bytes.length + " bytes, etag " + meta.getString("etag") + ")\n");
                }
                case "get" -> {
                    R2BucketHost.Got got = BindingTargets.await(r2.get(key, null, Double.NaN, Double.NaN, Double.NaN));
                    if (got == null) {
                        throw new CommandException(ExitCodes.FAILED, "object " + bucketName + "/" + key + " not found");
                    }
                    ByteBuffer b = got.body();
                    byte[] bytes = new byte[b.remaining()];
                    b.get(bytes);
                    if (args.get("file") != null) {
                        try {
                            Files.write(Path.of(args.get("file")), bytes);
                        } catch (IOException e) {
                            throw CommandException.failed("cannot write " + args.get("file") + ": " + e.getMessage(), e);
                        }
                        tool.out().result(result.put("key", key).put("size", bytes.length), "downloaded " + bucketName + "/" + key
                                + " to " + args.get("file") + "\n");
                    } else {
                        tool.env().out().write(bytes, 0, bytes.length);
                        tool.env().out().flush();
                    }
                }
                case "delete" -> {
                    BindingTargets.await(r2.delete(new JsonArray().add(key).encode()));
                    tool.out().result(result.put("key", key), "deleted " + bucketName + "/" + key + "\n");
                }
                case "list" -> {
                    JsonArray objects = new JsonArray();
                    String cursor = null;
                    do {
                        JsonObject page = new JsonObject(BindingTargets.await(r2.list(args.get("prefix"), null, cursor, null, Double.NaN,
                                true, true)));
                        page.getJsonArray("objects").forEach(o -> {
                            JsonObject m = (JsonObject) o;
                            objects.add(new JsonObject().put("key", m.getString("key")).put("size", m.getLong("size"))
                                    .put("etag", m.getString("etag")).put("uploaded_ms", m.getLong("uploaded")));
                        });
                        cursor = page.getString("cursor");
                    } while (cursor != null);
                    StringBuilder text = new StringBuilder();
                    objects.forEach(o -> text.append(String.format("%10d  %s%n", ((JsonObject) o).getLong("size"), ((JsonObject) o).getString("key"))));
                    tool.out().result(result.put("objects", objects), text.toString());
                }
                default -> throw CommandException.usage("r2 object: unknown operation '" + op + "'\n" + usage());
            }
            return ExitCodes.OK;
        }
    }

    private static void put(JsonObject o, String k, String v) {
        if (v != null) {
            o.put(k, v);
        }
    }
}
