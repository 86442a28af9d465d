package dev.cellgate.replicator.wal.bucket;

import dev.cellgate.core.spi.bucket.BucketException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Reads and listings with the same bounded retries as writes. */
public final class BucketReads {
    private static final int PAGE = 1000;

    private final BucketStore store;
    private final RetryPolicy retry;

    public BucketReads(BucketStore store, RetryPolicy retry) {
        this.store = store;
        this.retry = retry;
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
        return withRetry("list " + prefix, () -> store.list(prefix, cursor, PAGE)).thenCompose((ListPage p) -> {
            into.addAll(p.keys());
            return p.last() ? CompletableFuture.completedFuture(null) : page(prefix, p.nextCursor(), into);
        });
    }

    public CompletableFuture<Optional<StoredObject>> get(String key) {
        return withRetry("get " + key, () -> store.get(key));
    }

    /** The object's bytes; fails with {@link MissingObjectException} when it does not exist. */
    public CompletableFuture<byte[]> require(String key) {
        return get(key).thenApply(o -> o.orElseThrow(() -> new MissingObjectException(key)).bytes());
    }

    private <T> CompletableFuture<T> withRetry(String what, Supplier<CompletableFuture<T>> call) {
        return tryOnce(what, call, 1);
    }

    private <T> CompletableFuture<T> tryOnce(String what, Supplier<CompletableFuture<T>> call, int n) {
        CompletableFuture<T> f = DurableWrites.safe(call);
        return f.handle((v, err) -> {
            if (err == null) {
                return CompletableFuture.completedFuture(v);
            }
            if (n >= retry.attempts()) {
                return CompletableFuture.<T>failedFuture(new BucketException(what + " in " + store.url() + " failed after "
                        + n + " attempts: " + DurableWrites.unwrap(err), err));
            }
            return CompletableFuture.runAsync(() -> { },
                            CompletableFuture.delayedExecutor(retry.delayMillis(n + 1), TimeUnit.MILLISECONDS))
                    .thenCompose(x -> tryOnce(what, call, n + 1));
        }).thenCompose(x -> x);
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
