package dev.cellgate.gateway.ws;

import dev.cellgate.core.spi.js.WebSocketEnd;
import dev.cellgate.core.spi.js.WsFrame;
import io.vertx.core.http.WebSocketBase;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One end of a peer tunnel: a WebSocket between two nodes' internal listeners carrying one
 * client socket's messages ({@link TunnelFrames}), joined to a local {@link WebSocketEnd}. On the
 * owner's node the end is the Durable Object's; on the client's node, the pipe the Worker got.
 * A close crosses as a message, after which the tunnel itself closes normally (the side that
 * sent it has nothing more to say, and the other side's answer would have no one to reach: the
 * public socket answers closes by itself); a tunnel that drops without one reaches the local end
 * as 1006 (the client's node turns that into 1012).
 */
public final class TunnelBridge {
    private static final Logger LOG = LoggerFactory.getLogger(TunnelBridge.class);

    private TunnelBridge() {
    }

    public static void join(WebSocketBase tunnel, WebSocketEnd end, SocketRegistry registry, String peer) {
        registry.add(tunnel);
        AtomicBoolean closeSeen = new AtomicBoolean();
        tunnel.binaryMessageHandler(b -> {
            WsFrame f;
            try {
                f = TunnelFrames.decode(b);
            } catch (IllegalArgumentException e) {
                LOG.atWarn().setMessage("tunnel.bad_message").addKeyValue("peer", peer).addKeyValue("error", e.getMessage()).log();
                tunnel.close((short) 1002, "bad tunnel message");
                return;
            }
            if (f instanceof WsFrame.Close) {
                closeSeen.set(true);
            }
            end.send(f);
            if (f instanceof WsFrame.Close) {
                tunnel.close();
            }
        });
        tunnel.textMessageHandler(t -> tunnel.close((short) 1002, "tunnel messages are binary"));
        tunnel.exceptionHandler(e -> { });
        tunnel.closeHandler(v -> {
            registry.remove(tunnel);
            if (!closeSeen.get()) {
                end.send(new WsFrame.Close(WsFrame.ABNORMAL, ""));
            }
        });
        end.receive(frame -> {
            if (tunnel.isClosed()) {
                return;
            }
            try {
                tunnel.writeBinaryMessage(TunnelFrames.encode(frame));
            } catch (IllegalStateException closedMeanwhile) {
                return;
            }
            if (frame instanceof WsFrame.Close) {
                closeSeen.set(true);
                tunnel.close();
            }
        });
    }
}
