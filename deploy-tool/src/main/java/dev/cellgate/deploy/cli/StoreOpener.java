package dev.cellgate.deploy.cli;

import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import java.util.HashMap;
import java.util.Map;

/**
 * Opens the bucket the way a node does: the built-in {@code file://} store plus the store plugins
 * ({@code s3://}, {@code gs://}) in the tool's plugins directory, with the same URL forms and the
 * same credential chain as nodes. Endpoint and region come from {@code --endpoint}/{@code --region},
 * else {@code S3_ENDPOINT}/{@code AWS_REGION}.
 */
public final class StoreOpener {
    public static final String DEFAULT_BUCKET = "file://./cellgate-data/bucket";

    private final ToolPlugins plugins;
    private final Env env;

    public StoreOpener(ToolPlugins plugins, Env env) {
        this.plugins = plugins;
        this.env = env;
    }

    /** The bucket URL a command addresses: {@code --bucket}, else {@code CELLD_BUCKET}, else the node's default. */
    public String url(Args args) {
        String url = args.get("bucket");
        if (url == null) {
            url = env.get("CELLD_BUCKET");
        }
        return url == null ? DEFAULT_BUCKET : url;
    }

    public BucketStore open(Args args) {
        String url = url(args);
        Map<String, String> opts = new HashMap<>();
        put(opts, "S3_ENDPOINT", args.get("endpoint"), env.get("S3_ENDPOINT"));
        put(opts, "AWS_REGION", args.get("region"), env.get("AWS_REGION"));
        put(opts, "CELLD_FILE_FSYNC", null, env.get("CELLD_FILE_FSYNC"));
        put(opts, "CELLD_GCS_ENDPOINT", null, env.get("CELLD_GCS_ENDPOINT"));
        try {
            return new BucketStores(url.startsWith("file:") ? null : plugins.host()).open(url, new StoreOptions(opts));
        } catch (IllegalArgumentException e) {
            throw CommandException.usage("bucket " + url + ": " + e.getMessage());
        } catch (RuntimeException e) {
            throw CommandException.failed("cannot open bucket " + url + ": " + e.getMessage(), e);
        }
    }

    private static void put(Map<String, String> m, String k, String flag, String env) {
        String v = flag != null ? flag : env;
        if (v != null && !v.isBlank()) {
            m.put(k, v);
        }
    }
}
