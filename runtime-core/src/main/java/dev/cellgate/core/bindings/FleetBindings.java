package dev.cellgate.core.bindings;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.js.BindingRegistry;
import dev.cellgate.core.time.Ticker;

/**
 * The binding types this build of cellgate serves, in one list: the node builds its engine with
 * it, and deploy-tool refuses at push every binding whose type is not in it ("… is not implemented
 * yet on this fleet"). A new binding type is a provider added here (its host side) plus its
 * JavaScript wrapper in the engine plugin (docs/architecture.md, "Bindings").
 */
public final class FleetBindings {
    /** Asset bytes env.ASSETS keeps in memory per engine. */
    static final long ASSET_CACHE_BYTES = 32L * 1024 * 1024;

    private FleetBindings() {
    }

    /**
     * @param bucket the fleet bucket, or null for deploy-tool's load check (which runs before the
     *               bucket is opened: providers must then refuse calls that need it, by name)
     */
    public static BindingRegistry registry(BucketStore bucket) {
        return BindingRegistry.of(new SecretTextProvider(), new KvNamespaceProvider(bucket, Ticker.SYSTEM),
                new R2BucketProvider(bucket, Ticker.SYSTEM), new AssetsProvider(bucket, new dev.cellgate.core.assets.BlobCache(ASSET_CACHE_BYTES)),
                new ServiceBindingProvider(), new D1DatabaseProvider(), new WorkflowProvider(),
                new QueueProducerProvider(), new QueuesProvider());
    }
}
