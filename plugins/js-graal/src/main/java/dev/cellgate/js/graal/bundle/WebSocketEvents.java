package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.spi.js.WsFrame;
import dev.cellgate.js.graal.instance.JsInstance;
import dev.cellgate.js.graal.instance.ResultEvent;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * Events of a cell's hibernatable WebSockets, delivered into its context: {@code webSocketMessage},
 * {@code webSocketClose} and {@code webSocketError} on the Durable Object (see
 * {@code internal.dispatchWebSocketEvent} in {@code websocket.js}). Each is an event of its own,
 * complete when the handler's promise settles.
 */
final class WebSocketEvents {
    static final int TEXT = 1;
    static final int BINARY = 2;
    static final int CLOSE = 3;
    static final int ERROR = 4;

    private WebSocketEvents() {
    }

    static CompletableFuture<Void> frame(JsInstance instance, BundleRuntime runtime, String socketId, WsFrame frame) {
        return switch (frame) {
            case WsFrame.Text t -> run(instance, runtime, "webSocketMessage", socketId, TEXT, t.text(), 0, "");
            case WsFrame.Binary b -> run(instance, runtime, "webSocketMessage", socketId, BINARY, ByteBuffer.wrap(b.data()), 0, "");
            case WsFrame.Close c -> run(instance, runtime, "webSocketClose", socketId, CLOSE, null, c.code(), c.reason());
        };
    }

    static CompletableFuture<Void> error(JsInstance instance, BundleRuntime runtime, String socketId, String message) {
        return run(instance, runtime, "webSocketError", socketId, ERROR, message, 0, "");
    }

    private static CompletableFuture<Void> run(JsInstance instance, BundleRuntime runtime, String handler, String socketId,
                                               int kind, Object value, int code, String reason) {
        ResultEvent event = new ResultEvent(instance, null, handler);
        instance.deliver(event, () -> runtime.internal().getMember("dispatchWebSocketEvent")
                .executeVoid(event, socketId, kind, value, code, reason));
        return event.future().thenApply(b -> null);
    }
}
