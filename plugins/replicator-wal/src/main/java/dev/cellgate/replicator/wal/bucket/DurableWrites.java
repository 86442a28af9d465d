package dev.cellgate.replicator.wal.bucket;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Creates immutable objects exactly once. Every object of a lineage is written create-only: a key
 * names one content forever. An ambiguous outcome (timeout, 5xx) is reconciled by reading the key
 * back, never assumed: present with our bytes is success, present with other bytes is another
 * writer in our epoch (a protocol violation, fatal), absent means the write did not happen and is
 * retried, within the retry policy.
 */
public final class DurableWrites {
    private final BucketStore store;
    private final RetryPolicy retry;

    public DurableWrites(BucketStore store, RetryPolicy retry) {
        this.store = store;
        this.retry = retry;
    }

    public BucketStore store() {
        return store;
    }

    /** Completes when {@code key} holds exactly {@code bytes}; fails with {@link BucketWriteException} otherwise. */
    public CompletableFuture<Void> create(String key, byte[] bytes) {
        return attempt(key, bytes, 1, "no attempt made");
    }

    private CompletableFuture<Void> attempt(String key, byte[] bytes, int n, String lastProblem) {
        if (n > retry.attempts()) {
            return CompletableFuture.failedFuture(new BucketWriteException("writing " + key + " to " + store.url()
                    + " failed after " + retry.attempts() + " attempts: " + lastProblem));
        }
        return delay(n).thenCompose(x -> safe(() -> store.putIfAbsent(key, bytes)))
                .handle((outcome, err) -> {
                    if (outcome instanceof WriteOutcome.Written) {
                        return CompletableFuture.<Void>completedFuture(null);
                    }
                    String problem = err != null ? "error " + unwrap(err)
                            : outcome instanceof WriteOutcome.Rejected r ? "rejected (" + r.reason() + ")"
                            : "ambiguous (" + ((WriteOutcome.Ambiguous) outcome).reason() + ")";
                    return reconcile(key, bytes, n, problem);
                })
                .thenCompose(f -> f);
    }

    /** After a rejected or ambiguous write: read the key to learn what the bucket holds. */
    private CompletableFuture<Void> reconcile(String key, byte[] bytes, int n, String problem) {
        return safe(() -> store.get(key)).handle((found, err) -> {
            if (err != null) {
                return attempt(key, bytes, n + 1, problem + "; reading it back failed: " + unwrap(err));
            }
            return decide(key, bytes, n, problem, found);
        }).thenCompose(f -> f);
    }

    private CompletableFuture<Void> decide(String key, byte[] bytes, int n, String problem, Optional<StoredObject> found) {
        if (found.isEmpty()) {
            return attempt(key, bytes, n + 1, problem + "; the object is absent");
        }
        if (Arrays.equals(found.get().bytes(), bytes)) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.failedFuture(new BucketWriteException("object " + key + " in " + store.url()
                + " already exists with other content: another writer used this epoch"));
    }

    private CompletableFuture<Void> delay(int n) {
        long ms = retry.delayMillis(n);
        if (ms == 0) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(ms, TimeUnit.MILLISECONDS));
    }

    /** Turns a store method that throws synchronously into a failed future. */
    static <T> CompletableFuture<T> safe(java.util.function.Supplier<CompletableFuture<T>> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    static String unwrap(Throwable t) {
        Throwable c = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
        return c.toString();
    }
}
