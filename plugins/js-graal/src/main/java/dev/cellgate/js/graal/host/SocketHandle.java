package dev.cellgate.js.graal.host;

import dev.cellgate.core.spi.js.WebSocketEnd;

/**
 * One end of a WebSocket as a JavaScript {@code WebSocket} holds it: opaque to JavaScript, which
 * passes it back to {@link WebSocketBridge} for every operation. It leaves the context when the
 * socket is handed to the host: in a {@code 101} response, or to the cell host's hibernatable
 * sockets ({@code ctx.acceptWebSocket}).
 */
public final class SocketHandle {
    private final WebSocketEnd end;
    /** Accepted in this context ({@code accept()}): its frames become events here. */
    boolean accepted;
    /** Sent or received a close in this context. */
    boolean closed;
    /** The hold that keeps the instance busy while the socket is open (accepted sockets only). */
    SocketEvent lifetime;

    public SocketHandle(WebSocketEnd end) {
        this.end = end;
    }

    /** The end itself, for a response that hands it to the host. */
    public WebSocketEnd end() {
        return end;
    }
}
