package dev.cellgate.replicator.wal.bucket;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Creates immutable objects exactly once. Every object of a lineage is written create-only: a key
 * names one content forever. A rejected or ambiguous outcome (timeout, 5xx) is reconciled by
 * reading the key back, never assumed: present with our bytes is success, present with other bytes
 * is another writer in our epoch (a protocol violation, fatal), absent is a failure.
 *
 * <p>The store's own policy is the one retry layer (it retries what provably did nothing, such as
 * throttling, and what the server's own error ended). A write whose answer was lost is reconciled,
 * and sent again only through {@link #createNew}: see there.
 */
public final class DurableWrites {
    private final BucketStore store;

    public DurableWrites(BucketStore store) {
        this.store = store;
    }

    public BucketStore store() {
        return store;
    }

    /** Completes when {@code key} holds exactly {@code bytes}; fails with {@link BucketWriteException} otherwise. */
    public CompletableFuture<Void> create(String key, byte[] bytes) {
        return attempt(key, bytes, false);
    }

    /**
     * {@link #create}, for an object nothing deletes before this write completes (a commit's segment,
     * the epoch's base pin): when its outcome is lost and reading back proves it absent, the create
     * is sent ONCE more. That is safe for a create-only key of one content forever: if the first
     * attempt was still under way and lands later, whichever arrives second fails its precondition
     * against the same bytes. Without it, one connection the server dropped mid-upload (seen in CI on
     * S3Proxy) cost the cell a reset and its callers a 503. Objects that maintenance may collect
     * concurrently never take this path: re-sending one would resurrect a collected object (tried:
     * SnapshotTest then restored a lineage with a gap).
     */
    public CompletableFuture<Void> createNew(String key, byte[] bytes) {
        return attempt(key, bytes, true);
    }

    private CompletableFuture<Void> attempt(String key, byte[] bytes, boolean mayResend) {
        return safe(() -> store.putIfAbsent(key, bytes)).handle((outcome, err) -> {
            if (outcome instanceof WriteOutcome.Written) {
                return CompletableFuture.<Void>completedFuture(null);
            }
            String problem = err != null ? "error " + unwrap(err)
                    : outcome instanceof WriteOutcome.Rejected r ? "rejected (" + r.reason() + ")"
                    : "ambiguous (" + ((WriteOutcome.Ambiguous) outcome).reason() + ")";
            // a rejection proved the object existed: absent afterwards means it was deleted, never re-sent
            return reconcile(key, bytes, problem, mayResend && !(outcome instanceof WriteOutcome.Rejected));
        }).thenCompose(f -> f);
    }

    /** After a failed, rejected or ambiguous write: read the key to learn what the bucket holds. */
    private CompletableFuture<Void> reconcile(String key, byte[] bytes, String problem, boolean mayResend) {
        return safe(() -> store.get(key)).handle((found, err) -> {
            if (err != null) {
                throw new BucketWriteException("writing " + key + " to " + store.url() + " failed: " + problem
                        + "; reading it back failed: " + unwrap(err));
            }
            if (found.isEmpty() && mayResend) {
                return attempt(key, bytes, false);
            }
            return CompletableFuture.completedFuture(decide(key, bytes, problem, found));
        }).thenCompose(f -> f);
    }

    private Void decide(String key, byte[] bytes, String problem, Optional<StoredObject> found) {
        if (found.isEmpty()) {
            throw new BucketWriteException("writing " + key + " to " + store.url() + " failed: " + problem
                    + "; the object is absent when read back (after sending it once more)");
        }
        if (!Arrays.equals(found.get().bytes(), bytes)) {
            throw new BucketWriteException("object " + key + " in " + store.url()
                    + " already exists with other content: another writer used this epoch");
        }
        return null;
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
