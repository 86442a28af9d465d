package dev.cellgate.gateway.it;

import dev.cellgate.core.plugin.PluginHost;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;

/** A store opened through a plugin host that closes the host with it. */
final class ClosingStore extends ForwardingBucketStore {
    private final PluginHost host;

    ClosingStore(BucketStore inner, PluginHost host) {
        super(inner);
        this.host = host;
    }

    @Override
    public void close() {
        inner.close();
        host.close();
    }
}
