package dev.cellgate.replicator.wal.bucket;

import dev.cellgate.core.spi.bucket.BucketException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Reads and listings. No retries here: the store's own policy is the one retry layer (an S3 read
 * is tried up to 6 times by the store plugin; a second layer here multiplied that to 36 requests
 * per object). A failure names the operation, the key and the store.
 */
public final class BucketReads {
    private static final int PAGE = 1000;

    private final BucketStore store;

    public BucketReads(BucketStore store) {
        this.store = store;
    }

    public BucketStore store() {
        return store;
    }

    /** Every key under {@code prefix}, ascending. */
    public CompletableFuture<List<String>> listAll(String prefix) {
        List<String> all = new ArrayList<>();
        return page(prefix, null, all).thenApply(x -> all);
    }

    private CompletableFuture<Void> page(String prefix, String cursor, List<String> into) {
        return named("list " + prefix, () -> store.list(prefix, cursor, PAGE)).thenCompose((ListPage p) -> {
            into.addAll(p.keys());
            return p.last() ? CompletableFuture.completedFuture(null) : page(prefix, p.nextCursor(), into);
        });
    }

    public CompletableFuture<Optional<StoredObject>> get(String key) {
        return named("get " + key, () -> store.get(key));
    }

    /** The object's bytes; fails with {@link MissingObjectException} when it does not exist. */
    public CompletableFuture<byte[]> require(String key) {
        return get(key).thenApply(o -> o.orElseThrow(() -> new MissingObjectException(key)).bytes());
    }

    private <T> CompletableFuture<T> named(String what, Supplier<CompletableFuture<T>> call) {
        return DurableWrites.safe(call).handle((v, err) -> {
            if (err != null) {
                throw new BucketException(what + " in " + store.url() + " failed: " + DurableWrites.unwrap(err), err);
            }
            return v;
        });
    }

    /** A key the plan needs is not in the bucket. */
    public static final class MissingObjectException extends RuntimeException {
        private final String key;

        public MissingObjectException(String key) {
            super("object " + key + " is missing");
            this.key = key;
        }

        public String key() {
            return key;
        }
    }
}
