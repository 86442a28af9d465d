package dev.cellgate.core.fleet;

import dev.cellgate.core.spi.bucket.BucketException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

/** A real store with test hooks: failing or hanging deletes, an action injected before a CAS, a log of deletes. */
final class InterceptingStore extends ForwardingBucketStore {
    volatile Predicate<String> failDelete = k -> false;
    volatile Predicate<String> hangDelete = k -> false;
    /**
     * Runs when a compare-and-swap is made (in call order); the CAS reaches the store only once the
     * returned future completes (a request stuck on its way that lands late, or an action injected first).
     */
    volatile Function<String, CompletableFuture<Void>> beforeCas = k -> CompletableFuture.completedFuture(null);
    volatile Predicate<String> ambiguousPut = k -> false;
    /** A compare-and-swap of a matching key is applied, then its answer is lost (reported ambiguous). */
    volatile Predicate<String> loseCasAnswer = k -> false;
    /** Runs after a read has been answered by the store and before the caller sees the answer. */
    volatile Function<String, CompletableFuture<Void>> afterGet = k -> CompletableFuture.completedFuture(null);
    /** Decided when the read is made (in call order): a matching read never answers. */
    volatile Predicate<String> hangGet = k -> false;
    final List<String> deletes = new CopyOnWriteArrayList<>();
    /** Reads and compare-and-swaps in the store (not those {@link #beforeCas} still holds): 0 means it is settled. */
    final AtomicInteger pending = new AtomicInteger();

    InterceptingStore(BucketStore real) {
        super(real);
    }

    @Override
    public CompletableFuture<Optional<StoredObject>> get(String key) {
        if (hangGet.test(key)) {
            return new CompletableFuture<>(); // the read never answers
        }
        return tracked(inner.get(key).thenCompose(o -> afterGet.apply(key).thenApply(x -> o)));
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
        return beforeCas.apply(key).thenCompose(x -> tracked(inner.putIfVersion(key, bytes, version))).thenApply(o ->
                o instanceof WriteOutcome.Written && loseCasAnswer.test(key)
                        ? new WriteOutcome.Ambiguous("injected: answer lost after the write of " + key + " was applied", null) : o);
    }

    /** Counts {@code f} in {@link #pending} until the caller's own reactions to its answer have run. */
    private <T> CompletableFuture<T> tracked(CompletableFuture<T> f) {
        pending.incrementAndGet();
        CompletableFuture<T> out = new CompletableFuture<>();
        f.whenComplete((v, e) -> {
            try {
                if (e != null) {
                    out.completeExceptionally(e);
                } else {
                    out.complete(v);
                }
            } finally {
                pending.decrementAndGet();
            }
        });
        return out;
    }

    @Override
    public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
        if (ambiguousPut.test(key)) {
            return CompletableFuture.completedFuture(new WriteOutcome.Ambiguous("injected 503 on " + key, null));
        }
        return inner.put(key, bytes);
    }

    @Override
    public CompletableFuture<Void> delete(String key) {
        deletes.add(key);
        if (hangDelete.test(key)) {
            return new CompletableFuture<>(); // the process died waiting
        }
        if (failDelete.test(key)) {
            return CompletableFuture.failedFuture(new BucketException("injected failure deleting " + key));
        }
        return inner.delete(key);
    }

    /** The test owns the real store and closes it itself. */
    @Override
    public void close() {
    }
}
