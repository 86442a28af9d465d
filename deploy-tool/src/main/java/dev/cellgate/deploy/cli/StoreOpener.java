package dev.cellgate.deploy.cli;

import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.plugin.PluginHost;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Opens the bucket the same way a node does: the built-in file store, plus the store plugins in
 * the plugins directory next to deploy-tool.jar (or {@code CELLD_PLUGINS_DIR}). Endpoint and
 * region come from {@code --endpoint}/{@code --region} or {@code S3_ENDPOINT}/{@code AWS_REGION}.
 */
public final class StoreOpener implements AutoCloseable {
    public static final String DEFAULT_BUCKET = "file://./cellgate-data/bucket";

    private PluginHost plugins;

    public BucketStore open(Args args) {
        String url = args.get("bucket");
        if (url == null) {
            url = System.getenv().getOrDefault("CELLD_BUCKET", DEFAULT_BUCKET);
        }
        Map<String, String> opts = new HashMap<>();
        put(opts, "S3_ENDPOINT", args.get("endpoint"), System.getenv("S3_ENDPOINT"));
        put(opts, "AWS_REGION", args.get("region"), System.getenv("AWS_REGION"));
        put(opts, "CELLD_FILE_FSYNC", null, System.getenv("CELLD_FILE_FSYNC"));
        Path dir = pluginsDir();
        if (dir != null && Files.isDirectory(dir)) {
            plugins = new PluginHost(dir);
            plugins.start();
        }
        return new BucketStores(plugins).open(url, new StoreOptions(opts));
    }

    private static void put(Map<String, String> m, String k, String flag, String env) {
        String v = flag != null ? flag : env;
        if (v != null && !v.isBlank()) {
            m.put(k, v);
        }
    }

    private static Path pluginsDir() {
        String env = System.getenv("CELLD_PLUGINS_DIR");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        try {
            Path code = Path.of(StoreOpener.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Files.isRegularFile(code) ? code.getParent().resolve("plugins") : null;
        } catch (URISyntaxException | SecurityException e) {
            return null;
        }
    }

    @Override
    public void close() {
        if (plugins != null) {
            plugins.close();
        }
    }
}
