package dev.cellgate.core.bindings;

import dev.cellgate.core.deploy.bindings.KvNamespaceBinding;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.js.BindingProvider;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.InstanceHost;
import dev.cellgate.core.time.Ticker;
import java.util.regex.Pattern;

/**
 * {@code kv_namespace}: a KV namespace whose entries live in the fleet bucket under
 * {@code kv/<namespace_id>/} ({@link KvNamespaceHost}); js-graal's {@code kv_namespace.js} is the
 * Workers API over it. Every node reads and writes the same objects; each keeps copies of what it
 * read or wrote for up to a read's {@code cacheTtl} ({@link KvReadCache}, one per node), so a put on
 * one node is read on another at once, or once that node's copy is older than the read's cacheTtl.
 */
public final class KvNamespaceProvider implements BindingProvider {
    /** What a namespace id may be: it becomes a bucket key segment. Wrangler's are 32 hex digits. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final BucketStore bucket;
    private final Ticker clock;
    private final boolean brokenEarlyAck;
    /** This node's copies of KV entries, shared by every namespace and instance (keyed by bucket key). */
    private final KvReadCache cache = new KvReadCache(CACHE_BYTES);
    static final long CACHE_BYTES = 32L * 1024 * 1024;

    /** @param bucket the fleet bucket, or null (deploy-tool's load check: every call is refused by name) */
    public KvNamespaceProvider(BucketStore bucket, Ticker clock) {
        this(bucket, clock, false);
    }

    private KvNamespaceProvider(BucketStore bucket, Ticker clock, boolean brokenEarlyAck) {
        this.bucket = bucket;
        this.clock = clock;
        this.brokenEarlyAck = brokenEarlyAck;
    }

    /**
     * BROKEN ON PURPOSE, for the durability test only: a put resolves as soon as it is sent, before
     * the bucket confirmed it (so a node crash or a read elsewhere can miss an acknowledged write).
     */
    public static KvNamespaceProvider brokenEarlyAckForTests(BucketStore bucket, Ticker clock) {
        return new KvNamespaceProvider(bucket, clock, true);
    }

    @Override
    public String type() {
        return KvNamespaceBinding.TYPE;
    }

    @Override
    public void check(EnvBinding binding) {
        String id = binding.settings().getString("namespace_id");
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("namespace_id " + id + " is not 1 to 64 of A-Z a-z 0-9 _ -");
        }
    }

    @Override
    public Object open(EnvBinding binding, InstanceHost host) {
        return new KvNamespaceHost(bucket, binding.name(), binding.settings().getString("namespace_id"), clock, cache, brokenEarlyAck);
    }

    /** The bucket prefix of a namespace's entries (deploy-tool's {@code kv} commands use the same). */
    public static String prefix(String namespaceId) {
        return "kv/" + namespaceId + "/";
    }
}
