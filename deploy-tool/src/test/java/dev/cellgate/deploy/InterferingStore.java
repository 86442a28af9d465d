package dev.cellgate.deploy;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A real store with a hook that runs just before chosen conditional writes: another writer
 * "gets there first" at exactly the worst moment, deterministically.
 */
public final class InterferingStore extends ForwardingBucketStore {
    private final String key;
    private final int times;
    private final Consumer<BucketStore> interference;
    private int fired;

    /** Runs {@code interference} (against the real store) before the first {@code times} conditional writes of {@code key}. */
    public InterferingStore(BucketStore inner, String key, int times, Consumer<BucketStore> interference) {
        super(inner);
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
    public CompletableFuture<WriteOutcome> putIfAbsent(String k, byte[] bytes) {
        maybeInterfere(k);
        return inner.putIfAbsent(k, bytes);
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfVersion(String k, byte[] bytes, String version) {
        maybeInterfere(k);
        return inner.putIfVersion(k, bytes, version);
    }
}
