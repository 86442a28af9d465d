package dev.cellgate.core.spi.bucket;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A BucketStore that passes every call to another one: the base for wrappers that change one
 * or two operations (instrumentation, fault injection in tests) and leave the rest as they are.
 */
public abstract class ForwardingBucketStore implements BucketStore {
    protected final BucketStore inner;

    protected ForwardingBucketStore(BucketStore inner) {
        this.inner = inner;
    }

    @Override
    public String url() {
        return inner.url();
    }

    @Override
    public CompletableFuture<Optional<StoredObject>> get(String key) {
        return inner.get(key);
    }

    @Override
    public CompletableFuture<Optional<ObjectInfo>> info(String key) {
        return inner.info(key);
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
        return inner.putIfAbsent(key, bytes);
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
        return inner.putIfVersion(key, bytes, version);
    }

    @Override
    public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
        return inner.put(key, bytes);
    }

    @Override
    public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
        return inner.list(prefix, cursor, limit);
    }

    @Override
    public CompletableFuture<Void> delete(String key) {
        return inner.delete(key);
    }

    @Override
    public void close() {
        inner.close();
    }
}
