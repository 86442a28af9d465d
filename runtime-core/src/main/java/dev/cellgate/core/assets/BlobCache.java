package dev.cellgate.core.assets;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.spi.bucket.BucketStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Asset file bytes by digest, read from {@code assets/<sha256>} once and kept while they fit in
 * {@code maxBytes} (least recently served dropped first). A blob is immutable (its key is its
 * content), so a cached copy is never stale; one that does not match its digest is an error, never
 * served.
 */
public final class BlobCache {
    private final long maxBytes;
    private final boolean checkDigest;
    private final LinkedHashMap<String, byte[]> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;

    public BlobCache(long maxBytes) {
        this(maxBytes, true);
    }

    private BlobCache(long maxBytes, boolean checkDigest) {
        this.maxBytes = maxBytes;
        this.checkDigest = checkDigest;
    }

    /** BROKEN ON PURPOSE, for AssetServerTest only: serves whatever bytes the bucket holds under a digest. */
    public static BlobCache brokenWithoutDigestCheckForTests(long maxBytes) {
        return new BlobCache(maxBytes, false);
    }

    public CompletableFuture<byte[]> get(BucketStore bucket, String sha256) {
        synchronized (this) {
            byte[] hit = entries.get(sha256);
            if (hit != null) {
                return CompletableFuture.completedFuture(hit);
            }
        }
        return bucket.get(Keys.asset(sha256)).thenApply(o -> {
            byte[] b = o.orElseThrow(() -> new IllegalStateException("asset " + Keys.asset(sha256) + " is missing from the bucket")).bytes();
            if (checkDigest && !DeploymentStore.sha256(b).equals(sha256)) {
                throw new IllegalStateException("asset " + Keys.asset(sha256) + " does not match its digest");
            }
            put(sha256, b);
            return b;
        });
    }

    private synchronized void put(String sha256, byte[] b) {
        if (b.length > maxBytes || entries.containsKey(sha256)) {
            return;
        }
        entries.put(sha256, b);
        bytes += b.length;
        var it = entries.entrySet().iterator();
        while (bytes > maxBytes && it.hasNext()) {
            Map.Entry<String, byte[]> oldest = it.next();
            bytes -= oldest.getValue().length;
            it.remove();
        }
    }
}
