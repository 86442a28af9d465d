package dev.cellgate.deploy;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A real store with a hook that runs just before chosen conditional writes: another writer
 * "gets there first" at exactly the worst moment, deterministically.
 */
public final class InterferingStore implements BucketStore {
    private final BucketStore inner;
    private final String key;
    private final int times;
    private final Consumer<BucketStore> interference;
    private int fired;

    /** Runs {@code interference} (against the real store) before the first {@code times} conditional writes of {@code key}. */
    public InterferingStore(BucketStore inner, String key, int times, Consumer<BucketStore> interference) {
        this.inner = inner;
        this.key = key;
        this.times = times;
        this.interference = interference;
    }

    public synchronized int fired() {
        return fired;
    }

    private synchronized void maybeInterfere(String k) {
        if (k.equals(key) && fired < times) {
            fired++;
            interference.accept(inner);
        }
    }

    @Override
    public String url() {
        return inner.url();
    }

    @Override
    public CompletableFuture<Optional<StoredObject>> get(String k) {
        return inner.get(k);
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfAbsent(String k, byte[] bytes) {
        maybeInterfere(k);
        return inner.putIfAbsent(k, bytes);
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfVersion(String k, byte[] bytes, String version) {
        maybeInterfere(k);
        return inner.putIfVersion(k, bytes, version);
    }

    @Override
    public CompletableFuture<WriteOutcome> put(String k, byte[] bytes) {
        return inner.put(k, bytes);
    }

    @Override
    public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
        return inner.list(prefix, cursor, limit);
    }

    @Override
    public CompletableFuture<Void> delete(String k) {
        return inner.delete(k);
    }

    @Override
    public void close() {
        inner.close();
    }
}
