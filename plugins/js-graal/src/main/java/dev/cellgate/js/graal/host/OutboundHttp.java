package dev.cellgate.js.graal.host;

import dev.cellgate.core.spi.js.Egress;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.net.SocketAddress;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * The node's client for outbound {@code fetch()}: one Vert.x HTTP client per engine, created on
 * first use. Timeouts (a Worker on Cloudflare has none of its own, but a node must not hold a
 * connection forever): connecting gives up after {@link #CONNECT_TIMEOUT_MS}, and a response that
 * sends nothing for {@link #IDLE_TIMEOUT_MS} fails. Compressed responses are decoded, as workerd does.
 *
 * <p>Egress (SPEC §19): every connection goes to an address resolved here and judged by the node's
 * {@link Egress} first ({@link #destination}); the request is pinned to that address, so a DNS answer
 * that changes between the check and the connect (rebinding) cannot redirect it, and the address the
 * connection actually reached is judged again before a byte is sent ({@link #connectedRefusal}).
 */
public final class OutboundHttp implements AutoCloseable {
    public static final int CONNECT_TIMEOUT_MS = 10_000;
    public static final int IDLE_TIMEOUT_MS = 120_000;

    private final Vertx vertx;
    private final Egress egress;
    private HttpClientAgent client;

    public OutboundHttp(Vertx vertx, Egress egress) {
        this.vertx = vertx;
        this.egress = egress;
    }

    /** A connection the egress policy refused; its message names the destination and the setting. */
    public static final class EgressRefusedException extends RuntimeException {
        public EgressRefusedException(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Resolves {@code host} (a literal is not looked up) and picks the first address the egress
     * policy allows; fails with {@link EgressRefusedException} when it allows none. Runs the lookup
     * and the policy off the event loop.
     */
    Future<InetSocketAddress> destination(String host, int port) {
        return vertx.executeBlocking(() -> {
            InetAddress[] all;
            try {
                all = InetAddress.getAllByName(host);
            } catch (UnknownHostException e) {
                throw new UnknownHostException("unknown host " + host);
            }
            String first = null;
            for (InetAddress a : all) {
                String no = egress.refusal(host, a, port);
                if (no == null) {
                    return new InetSocketAddress(a, port);
                }
                first = first == null ? no : first;
            }
            throw new EgressRefusedException(first);
        }, false);
    }

    /** Why the connection that was made may not be used, or null: the peer address it reached is judged again. */
    String connectedRefusal(String host, SocketAddress remote, int port) {
        if (remote == null || remote.hostAddress() == null) {
            return null; // not an IP connection (none is made otherwise); the address it was pinned to was judged
        }
        try {
            return egress.refusal(host, InetAddress.getByName(remote.hostAddress()), port); // a literal: no lookup
        } catch (UnknownHostException e) {
            return "connection to " + remote + " refused: its address cannot be judged (" + e.getMessage() + ")";
        }
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
