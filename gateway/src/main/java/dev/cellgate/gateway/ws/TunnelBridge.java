package dev.cellgate.gateway.ws;

import dev.cellgate.core.spi.js.WebSocketEnd;
import dev.cellgate.core.spi.js.WsFrame;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketBase;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One end of a peer tunnel: a WebSocket between two nodes' internal listeners carrying one
 * client socket's messages ({@link TunnelFrames}), joined to a local {@link WebSocketEnd}. On the
 * owner's node the end is the Durable Object's; on the client's node, the pipe the Worker got.
 *
 * <p>A close crosses as a message, and so does its answer: the tunnel closes once a close went
 * each way. The answer matters — a Durable Object that closed a hibernatable socket keeps it
 * (CLOSING) until the client's close comes back, exactly as with a direct connection; a tunnel
 * that closed right after the first close left such sockets listed for ever. If the answer does
 * not come within {@link #CLOSE_WAIT_MS} the tunnel closes anyway, and a tunnel that ends
 * without a close message reaches the local end as 1006 (the client's node turns that into 1012).
 */
public final class TunnelBridge {
    private static final Logger LOG = LoggerFactory.getLogger(TunnelBridge.class);
    /** How long a tunnel waits for the answer to a close before it closes regardless. */
    static final long CLOSE_WAIT_MS = 10_000;

    private TunnelBridge() {
    }

    /** Call on the tunnel's Vert.x context (the timer for an unanswered close runs there). */
    public static void join(WebSocketBase tunnel, WebSocketEnd end, SocketRegistry registry, String peer) {
        registry.add(tunnel);
        Context ctx = Vertx.currentContext();
        AtomicBoolean closeReceived = new AtomicBoolean();
        AtomicBoolean closeSent = new AtomicBoolean();
        Runnable closeWhenBothWays = () -> {
            if (closeReceived.get() && closeSent.get()) {
                tunnel.close();
            }
        };
        tunnel.binaryMessageHandler(b -> {
            WsFrame f;
            try {
                f = TunnelFrames.decode(b);
            } catch (IllegalArgumentException e) {
                LOG.atWarn().setMessage("tunnel.bad_message").addKeyValue("peer", peer).addKeyValue("error", e.getMessage()).log();
                tunnel.close((short) 1002, "bad tunnel message");
                return;
            }
            if (f instanceof WsFrame.Close && closeReceived.getAndSet(true)) {
                return; // one close per direction
            }
            end.send(f);
            if (f instanceof WsFrame.Close) {
                closeWhenBothWays.run();
                closeAnywayLater(ctx, tunnel);
            }
        });
        tunnel.textMessageHandler(t -> tunnel.close((short) 1002, "tunnel messages are binary"));
        tunnel.exceptionHandler(e -> { });
        tunnel.closeHandler(v -> {
            registry.remove(tunnel);
            if (!closeReceived.get()) {
                end.send(new WsFrame.Close(WsFrame.ABNORMAL, ""));
            }
        });
        end.receive(frame -> {
            if (tunnel.isClosed() || closeSent.get()) {
                return;
            }
            try {
                tunnel.writeBinaryMessage(TunnelFrames.encode(frame));
            } catch (IllegalStateException closedMeanwhile) {
                return;
            }
            if (frame instanceof WsFrame.Close) {
                closeSent.set(true);
                closeWhenBothWays.run();
                closeAnywayLater(ctx, tunnel);
            }
        });
    }

    private static void closeAnywayLater(Context ctx, WebSocketBase tunnel) {
        if (ctx == null) {
            tunnel.close(); // no context to wait on (not expected): do not leave the tunnel open
            return;
        }
        ctx.runOnContext(v -> ctx.owner().setTimer(CLOSE_WAIT_MS, id -> {
            if (!tunnel.isClosed()) {
                tunnel.close();
            }
        }));
    }
}
