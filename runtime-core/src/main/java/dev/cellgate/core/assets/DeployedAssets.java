package dev.cellgate.core.assets;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.bindings.AssetsConfig;
import dev.cellgate.core.spi.bucket.BucketStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The node's asset servers by deployment id: the first request to a deployment reads its manifest
 * and asset manifest (later ones wait for the same read), so a request served by a deployment's
 * code is routed by that deployment's assets, never another's. A failed read is forgotten, so the
 * next request tries again. The last few deployments are kept (a rollback switches at once).
 */
public final class DeployedAssets {
    private static final int KEEP = 4;

    private final BucketStore bucket;
    private final DeploymentStore deployments;
    private final BlobCache cache;
    private final LinkedHashMap<String, CompletableFuture<Optional<AssetServer>>> byDeployment = new LinkedHashMap<>();

    public DeployedAssets(BucketStore bucket, BlobCache cache) {
        this.bucket = bucket;
        this.deployments = new DeploymentStore(bucket);
        this.cache = cache;
    }

    /** The deployment's assets, or empty when it has none. */
    public synchronized CompletableFuture<Optional<AssetServer>> of(String deploymentId) {
        CompletableFuture<Optional<AssetServer>> f = byDeployment.get(deploymentId);
        if (f != null && !f.isCompletedExceptionally()) {
            return f;
        }
        f = deployments.manifest(deploymentId).thenCompose(m -> {
            AssetsConfig cfg = m.settings().assets();
            return cfg == null ? CompletableFuture.completedFuture(Optional.<AssetServer>empty())
                    : AssetServer.load(bucket, cache, cfg).thenApply(Optional::of);
        });
        byDeployment.put(deploymentId, f);
        while (byDeployment.size() > KEEP) {
            String oldest = byDeployment.keySet().iterator().next();
            byDeployment.remove(oldest);
        }
        return f;
    }

    /** For tests: the deployments whose assets are held. */
    synchronized Map<String, CompletableFuture<Optional<AssetServer>>> held() {
        return Map.copyOf(byDeployment);
    }
}
