package dev.cellgate.core.assets;

import dev.cellgate.core.deploy.AssetManifest;
import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.bindings.AssetsConfig;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.assets.AssetEntry;
import dev.cellgate.core.logic.assets.AssetRequest;
import dev.cellgate.core.logic.assets.AssetResponse;
import dev.cellgate.core.logic.assets.HeaderRules;
import dev.cellgate.core.logic.assets.PublicAssets;
import dev.cellgate.core.logic.assets.HtmlHandling;
import dev.cellgate.core.logic.assets.RedirectRules;
import dev.cellgate.core.logic.assets.WorkerFirst;
import dev.cellgate.core.spi.bucket.BucketStore;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One deployment's static assets, served from the fleet bucket: the {@link AssetManifest} named by
 * {@code assets.manifest} (read once, checked against its digest), the routing decisions of
 * {@link PublicAssets}, and file bytes read from {@code assets/<sha256>} (checked against the digest,
 * then kept in a {@link BlobCache} shared by the node's deployments).
 */
public final class AssetServer {
    /** A complete answer: status, headers (lower-case names), body (empty for none). */
    public record Served(int status, Map<String, String> headers, byte[] body) {
    }

    private final BucketStore bucket;
    private final BlobCache cache;
    private final AssetManifest manifest;
    private final PublicAssets routing;
    private final boolean hasWorker;

    private AssetServer(BucketStore bucket, BlobCache cache, AssetsConfig config, AssetManifest manifest) {
        this.bucket = bucket;
        this.cache = cache;
        this.manifest = manifest;
        this.hasWorker = config.hasUserWorker();
        this.routing = new PublicAssets(new HtmlHandling(config.htmlHandling(), config.notFoundHandling(), manifest),
                RedirectRules.parse(manifest.redirects()), HeaderRules.parse(manifest.headers()),
                new WorkerFirst(config.runWorkerFirst(), config.runWorkerFirstRoutes()));
    }

    public static CompletableFuture<AssetServer> load(BucketStore bucket, BlobCache cache, AssetsConfig config) {
        return bucket.get(Keys.asset(config.manifest())).thenApply(o -> {
            byte[] bytes = o.orElseThrow(() -> new IllegalStateException("asset manifest " + Keys.asset(config.manifest())
                    + " is missing from the bucket")).bytes();
            if (!DeploymentStore.sha256(bytes).equals(config.manifest())) {
                throw new IllegalStateException("asset manifest " + Keys.asset(config.manifest()) + " does not match its digest");
            }
            return new AssetServer(bucket, cache, config, AssetManifest.decode(bytes));
        });
    }

    public AssetManifest manifest() {
        return manifest;
    }

    /**
     * The answer for a public request to a deployment, or null when its Worker answers instead. An
     * assets-only deployment ({@link AssetsConfig#hasUserWorker} false) answers everything here.
     */
    public CompletableFuture<Served> servePublic(AssetRequest req) {
        AssetResponse r = routing.route(req, hasWorker);
        return r == null ? CompletableFuture.completedFuture(null) : body(r);
    }

    /** The answer of {@code env.ASSETS.fetch(request)}, and of a deployment without a Worker. */
    public CompletableFuture<Served> serve(AssetRequest req) {
        return body(routing.binding(req));
    }

    private CompletableFuture<Served> body(AssetResponse r) {
        AssetEntry e = r.body();
        if (e == null) {
            return CompletableFuture.completedFuture(new Served(r.status(), r.headers(), new byte[0]));
        }
        return cache.get(bucket, e.sha256()).thenApply(bytes -> new Served(r.status(), r.headers(), r.range().status() == 206
                ? java.util.Arrays.copyOfRange(bytes, (int) r.range().first(), (int) r.range().last() + 1) : bytes));
    }
}
