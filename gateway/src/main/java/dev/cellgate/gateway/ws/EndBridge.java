package dev.cellgate.gateway.ws;

import dev.cellgate.core.spi.js.WebSocketEnd;
import dev.cellgate.core.spi.js.WsFrame;
import io.vertx.core.http.WebSocketBase;

/**
 * Joins a client's network WebSocket to the end a Worker answered {@code 101} with: messages and
 * the close pass through unchanged (frames are reassembled into messages by Vert.x, up to the
 * listener's message limit). A connection that drops without a close frame reaches the engine
 * as close code 1006.
 */
public final class EndBridge {
    private EndBridge() {
    }

    public static void join(WebSocketBase ws, WebSocketEnd end, SocketRegistry registry) {
        registry.add(ws);
        ws.textMessageHandler(t -> end.send(new WsFrame.Text(t)));
        ws.binaryMessageHandler(b -> end.send(new WsFrame.Binary(b.getBytes())));
        ws.exceptionHandler(e -> { }); // a reset connection ends in closeHandler with 1006
        ws.closeHandler(v -> {
            registry.remove(ws);
            end.send(CloseCodes.received(ws));
        });
        end.receive(frame -> {
            switch (frame) {
                case WsFrame.Text t -> write(ws, () -> ws.writeTextMessage(t.text()));
                case WsFrame.Binary b -> write(ws, () -> ws.writeBinaryMessage(io.vertx.core.buffer.Buffer.buffer(b.data())));
                case WsFrame.Close c -> CloseCodes.send(ws, c);
            }
        });
    }

    private static void write(WebSocketBase ws, Runnable op) {
        if (!ws.isClosed()) {
            try {
                op.run();
            } catch (IllegalStateException closedMeanwhile) {
                // the client went away between the check and the write: its close reaches the engine anyway
            }
        }
    }
}
