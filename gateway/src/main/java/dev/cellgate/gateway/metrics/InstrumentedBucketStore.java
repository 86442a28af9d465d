package dev.cellgate.gateway.metrics;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.gateway.metrics.BucketMetrics.Op;
import dev.cellgate.gateway.metrics.BucketMetrics.Outcome;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link BucketStore} that times every operation by kind and outcome and counts the bytes, then
 * answers exactly what the store answered (same future values, same failures). The node wraps
 * its bucket in it once, so ownership, leases, deployments and replication are all counted.
 */
public final class InstrumentedBucketStore implements BucketStore {
    private final BucketStore store;
    private final BucketMetrics metrics;

    public InstrumentedBucketStore(BucketStore store, BucketMetrics metrics) {
        this.store = store;
        this.metrics = metrics;
    }

    @Override
    public String url() {
        return store.url();
    }

    @Override
    public CompletableFuture<Optional<StoredObject>> get(String key) {
        long t0 = System.nanoTime();
        return relay(store.get(key), (o, e) -> {
            if (e == null && o.isPresent()) {
                metrics.read(o.get().bytes().length);
            }
            metrics.record(Op.GET, e != null ? Outcome.ERROR : o.isPresent() ? Outcome.FOUND : Outcome.NOT_FOUND,
                    System.nanoTime() - t0);
        });
    }

    @Override
    public CompletableFuture<Optional<String>> version(String key) {
        long t0 = System.nanoTime();
        return relay(store.version(key), (o, e) -> metrics.record(Op.VERSION,
                e != null ? Outcome.ERROR : o.isPresent() ? Outcome.FOUND : Outcome.NOT_FOUND, System.nanoTime() - t0));
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
        return write(Op.PUT_IF_ABSENT, bytes.length, System.nanoTime(), store.putIfAbsent(key, bytes));
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
        return write(Op.PUT_IF_VERSION, bytes.length, System.nanoTime(), store.putIfVersion(key, bytes, version));
    }

    @Override
    public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
        return write(Op.PUT, bytes.length, System.nanoTime(), store.put(key, bytes));
    }

    private CompletableFuture<WriteOutcome> write(Op op, int size, long t0, CompletableFuture<WriteOutcome> f) {
        return relay(f, (w, e) -> {
            Outcome o = e != null ? Outcome.ERROR : switch (w) {
                case WriteOutcome.Written x -> Outcome.WRITTEN;
                case WriteOutcome.Rejected x -> Outcome.REJECTED;
                case WriteOutcome.Ambiguous x -> Outcome.AMBIGUOUS;
            };
            if (o == Outcome.WRITTEN) {
                metrics.written(size);
            }
            metrics.record(op, o, System.nanoTime() - t0);
        });
    }

    @Override
    public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
        long t0 = System.nanoTime();
        return relay(store.list(prefix, cursor, limit),
                (p, e) -> metrics.record(Op.LIST, e == null ? Outcome.OK : Outcome.ERROR, System.nanoTime() - t0));
    }

    @Override
    public CompletableFuture<Void> delete(String key) {
        long t0 = System.nanoTime();
        return relay(store.delete(key),
                (v, e) -> metrics.record(Op.DELETE, e == null ? Outcome.OK : Outcome.ERROR, System.nanoTime() - t0));
    }

    /**
     * Records, then completes a fresh future with the store's own value or exception: a plain
     * {@code whenComplete} stage would wrap a failure in a CompletionException, and a caller that
     * checks the exception's type on the store's future must see what the store gave.
     */
    private static <T> CompletableFuture<T> relay(CompletableFuture<T> f, java.util.function.BiConsumer<T, Throwable> record) {
        CompletableFuture<T> out = new CompletableFuture<>();
        f.whenComplete((v, e) -> {
            try {
                record.accept(v, e);
            } finally {
                if (e != null) {
                    out.completeExceptionally(e);
                } else {
                    out.complete(v);
                }
            }
        });
        return out;
    }

    @Override
    public void close() {
        store.close();
    }
}
