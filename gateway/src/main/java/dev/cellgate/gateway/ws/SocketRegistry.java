package dev.cellgate.gateway.ws;

import dev.cellgate.core.spi.js.WsFrame;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Every WebSocket connection of this node that touches the network: public client sockets and
 * peer tunnels (both directions). The node closes them all with 1012 when it stops or fences, so
 * clients reconnect and land on the cells' next owners. A ping every {@link #PING_MS} keeps idle
 * connections (hibernating rooms) from being cut by the listener's idle timeout or a proxy.
 */
public final class SocketRegistry {
    static final long PING_MS = 30_000;

    private final Set<WebSocketBase> open = ConcurrentHashMap.newKeySet();
    private final Buffer empty = Buffer.buffer();

    public SocketRegistry(Vertx vertx) {
        vertx.setPeriodic(PING_MS, id -> ping());
    }

    /** Tracks {@code ws} until it closes. */
    public void add(WebSocketBase ws) {
        open.add(ws);
    }

    void remove(WebSocketBase ws) {
        open.remove(ws);
    }

    public int count() {
        return open.size();
    }

    private void ping() {
        for (WebSocketBase ws : open) {
            if (!ws.isClosed()) {
                ws.writePing(empty);
            }
        }
    }

    /**
     * Closes every connection with 1012 (service restart); completes when the close frames are out
     * or after {@code timeoutMs}, whichever is first.
     */
    public CompletableFuture<Void> closeAll(String reason, long timeoutMs) {
        List<Future<Void>> closing = new ArrayList<>();
        for (WebSocketBase ws : List.copyOf(open)) {
            if (!ws.isClosed()) {
                closing.add(ws.close((short) WsFrame.SERVICE_RESTART, reason));
            }
        }
        return Future.join(closing).toCompletionStage().toCompletableFuture().handle((v, e) -> (Void) null)
                .completeOnTimeout(null, timeoutMs, TimeUnit.MILLISECONDS);
    }
}
