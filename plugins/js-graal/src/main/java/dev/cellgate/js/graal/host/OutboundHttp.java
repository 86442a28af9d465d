package dev.cellgate.js.graal.host;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;

/**
 * The node's client for outbound {@code fetch()}: one Vert.x HTTP client per engine, created on
 * first use. Timeouts (a Worker on Cloudflare has none of its own, but a node must not hold a
 * connection forever): connecting gives up after {@link #CONNECT_TIMEOUT_MS}, and a response that
 * sends nothing for {@link #IDLE_TIMEOUT_MS} fails. Compressed responses are decoded, as workerd does.
 */
public final class OutboundHttp implements AutoCloseable {
    public static final int CONNECT_TIMEOUT_MS = 10_000;
    public static final int IDLE_TIMEOUT_MS = 120_000;

    private final Vertx vertx;
    private HttpClientAgent client;

    public OutboundHttp(Vertx vertx) {
        this.vertx = vertx;
    }

    public Vertx vertx() {
        return vertx;
    }

    synchronized HttpClientAgent client() {
        if (client == null) {
            if (vertx == null) {
                throw new IllegalStateException("outbound fetch needs the node's Vert.x instance (JsEngineConfig.vertx)");
            }
            client = vertx.createHttpClient(new HttpClientOptions()
                    .setConnectTimeout(CONNECT_TIMEOUT_MS)
                    .setDecompressionSupported(true)
                    .setKeepAlive(true), new PoolOptions().setHttp1MaxSize(64));
        }
        return client;
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
