package dev.cellgate.core.bindings;

import dev.cellgate.core.assets.AssetServer;
import dev.cellgate.core.assets.BlobCache;
import dev.cellgate.core.deploy.bindings.AssetsBinding;
import dev.cellgate.core.deploy.bindings.AssetsConfig;
import dev.cellgate.core.logic.assets.AssetRequest;
import dev.cellgate.core.logic.assets.UrlPaths;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.js.BindingCallException;
import dev.cellgate.core.spi.js.BindingMethod;
import dev.cellgate.core.spi.js.BindingProvider;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.InstanceHost;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * {@code assets} ({@code env.ASSETS}): {@code fetch(request)} answers as the deployment's static
 * assets would, not_found_handling included, whatever {@code run_worker_first} says (the Worker
 * asked). Settings are the manifest's {@code assets} object; the asset manifest is read from the
 * bucket once per digest. Without a bucket (deploy-tool's load check) a call is refused by name.
 */
public final class AssetsProvider implements BindingProvider {
    private final BucketStore bucket;
    private final BlobCache cache;
    private final Map<String, CompletableFuture<AssetServer>> servers = new HashMap<>();

    public AssetsProvider(BucketStore bucket, BlobCache cache) {
        this.bucket = bucket;
        this.cache = cache;
    }

    @Override
    public String type() {
        return AssetsBinding.TYPE;
    }

    @Override
    public void check(EnvBinding binding) {
        AssetsConfig.decode(binding.settings());
    }

    @Override
    public Object open(EnvBinding binding, InstanceHost host) {
        return new Fetcher(binding.name(), AssetsConfig.decode(binding.settings()));
    }

    private synchronized CompletableFuture<AssetServer> server(AssetsConfig config) {
        CompletableFuture<AssetServer> f = servers.get(config.manifest());
        if (f == null || f.isCompletedExceptionally()) {
            f = AssetServer.load(bucket, cache, config);
            servers.put(config.manifest(), f);
        }
        return f;
    }

    /** The host side of one {@code env.ASSETS}. */
    public final class Fetcher {
        private final String name;
        private final AssetsConfig config;

        Fetcher(String name, AssetsConfig config) {
            this.name = name;
            this.config = config;
        }

        /** @param url the request's URL as JavaScript's URL parser wrote it */
        @BindingMethod
        public CompletionStage<Answer> fetch(String method, String url, String ifNoneMatch, boolean uncacheable) {
            if (bucket == null) {
                return CompletableFuture.failedFuture(new BindingCallException("Error",
                        name + ".fetch() is not available during deploy-tool's load check"));
            }
            java.net.URI u = java.net.URI.create(url);
            String search = u.getRawQuery() == null ? "" : "?" + u.getRawQuery();
            AssetRequest req = new AssetRequest(method, u.getHost() == null ? "" : u.getHost(),
                    UrlPaths.pathname(u.getRawPath() == null ? "/" : u.getRawPath()), search, ifNoneMatch, uncacheable);
            return server(config).thenCompose(s -> s.serve(req)).thenApply(Answer::new);
        }
    }

    /** One answer, read by the JavaScript wrapper. */
    public static final class Answer {
        private final AssetServer.Served served;

        Answer(AssetServer.Served served) {
            this.served = served;
        }

        @BindingMethod
        public int status() {
            return served.status();
        }

        @BindingMethod
        public String headers() {
            return new JsonObject(new java.util.LinkedHashMap<>(served.headers())).encode();
        }

        @BindingMethod
        public ByteBuffer body() {
            return ByteBuffer.wrap(served.body());
        }
    }
}
