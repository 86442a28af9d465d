package dev.cellgate.gateway.ws;

import dev.cellgate.core.spi.js.WsFrame;
import io.vertx.core.http.WebSocketBase;
import java.nio.charset.StandardCharsets;

/** Close frames between the engine's {@link WsFrame.Close} and a network WebSocket. */
final class CloseCodes {
    /** A control frame's payload is at most 125 bytes: 2 for the code, 123 for the reason. */
    static final int MAX_REASON_BYTES = 123;

    private CloseCodes() {
    }

    /**
     * Sends {@code close} on the network. 1005 (closed without a code) goes out as 1000; 1006 and
     * other codes that may not be sent mean the far side is gone: 1012, so the client reconnects.
     */
    static void send(WebSocketBase ws, WsFrame.Close close) {
        if (ws.isClosed()) {
            return;
        }
        int code = close.code() == WsFrame.NO_STATUS ? 1000 : close.sendable() ? close.code() : WsFrame.SERVICE_RESTART;
        ws.close((short) code, truncate(close.reason()));
    }

    /** What the network's close means to the engine: the peer's code, or 1006 for a lost connection. */
    static WsFrame.Close received(WebSocketBase ws) {
        Short code = ws.closeStatusCode();
        String reason = ws.closeReason();
        return new WsFrame.Close(code == null ? WsFrame.ABNORMAL : code, reason == null ? "" : reason);
    }

    static String truncate(String reason) {
        byte[] b = reason.getBytes(StandardCharsets.UTF_8);
        if (b.length <= MAX_REASON_BYTES) {
            return reason;
        }
        int n = MAX_REASON_BYTES;
        while (n > 0 && (b[n] & 0xC0) == 0x80) {
            n--; // do not cut a UTF-8 sequence in half
        }
        return new String(b, 0, n, StandardCharsets.UTF_8);
    }
}
