package dev.cellgate.core.assets;

import dev.cellgate.core.deploy.AssetManifest;
import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.assets.AssetEntry;
import dev.cellgate.core.logic.assets.ContentTypes;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.function.Supplier;

/**
 * Writing static assets to the bucket as the push does: each object under {@code assets/<sha256 of
 * its bytes>}, created only when no object is there (the key is the content, so one that is there
 * holds these bytes and is not uploaded again).
 */
public final class AssetObjects {
    private AssetObjects() {
    }

    /**
     * Stores the bytes under {@code assets/<sha256>} unless an object is there ({@code bytes} is only
     * called then).
     *
     * @return true when this call uploaded them
     * @throws IllegalStateException when the bytes do not match the digest or the write is ambiguous
     */
    public static boolean store(BucketStore bucket, String sha256, Supplier<byte[]> bytes) {
        String key = Keys.asset(sha256);
        if (bucket.version(key).join().isPresent()) {
            return false;
        }
        byte[] b = bytes.get();
        if (!DeploymentStore.sha256(b).equals(sha256)) {
            throw new IllegalStateException("the bytes of " + key + " changed while they were read");
        }
        WriteOutcome w = bucket.putIfAbsent(key, b).join();
        if (w instanceof WriteOutcome.Ambiguous a) {
            throw new IllegalStateException("upload of " + key + " is ambiguous: " + a.reason() + "; push again");
        }
        return w.written();
    }

    /** A file stored, and its manifest entry (digest, size, Wrangler's content type for the pathname). */
    public static AssetEntry putFile(BucketStore bucket, String pathname, byte[] bytes) {
        String sha = DeploymentStore.sha256(bytes);
        store(bucket, sha, () -> bytes);
        return new AssetEntry(sha, bytes.length, ContentTypes.of(pathname));
    }

    /** The asset manifest stored; its digest, which the deployment manifest names in {@code assets.manifest}. */
    public static String putManifest(BucketStore bucket, AssetManifest manifest) {
        byte[] b = manifest.encode();
        String sha = DeploymentStore.sha256(b);
        store(bucket, sha, () -> b);
        return sha;
    }
}
