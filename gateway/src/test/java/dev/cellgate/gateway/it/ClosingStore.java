package dev.cellgate.gateway.it;

import dev.cellgate.core.plugin.PluginHost;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** A store opened through a plugin host that closes the host with it. */
record ClosingStore(BucketStore inner, PluginHost host) implements BucketStore {
    public String url() {
        return inner.url();
    }

    public CompletableFuture<Optional<StoredObject>> get(String key) {
        return inner.get(key);
    }

    public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
        return inner.putIfAbsent(key, bytes);
    }

    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
        return inner.putIfVersion(key, bytes, version);
    }

    public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
        return inner.put(key, bytes);
    }

    public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
        return inner.list(prefix, cursor, limit);
    }

    public CompletableFuture<Void> delete(String key) {
        return inner.delete(key);
    }

    public void close() {
        inner.close();
        host.close();
    }
}
