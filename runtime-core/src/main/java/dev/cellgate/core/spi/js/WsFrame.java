package dev.cellgate.core.spi.js;

/**
 * One WebSocket message crossing the seam between host and engine: a text message, a binary
 * message, or the close of the connection. {@code Close} carries the code the JavaScript close
 * event shows: 1005 when the closer gave no code, 1006 when the connection was lost without a
 * close frame (those two are never sent on the wire).
 */
public sealed interface WsFrame {
    /** No status code was given ({@code ws.close()} without arguments). */
    int NO_STATUS = 1005;
    /** The connection went away without a close handshake. */
    int ABNORMAL = 1006;
    /** Service restart: the cell moved (handoff, fencing); reconnect and land on the new owner. */
    int SERVICE_RESTART = 1012;

    record Text(String text) implements WsFrame {
        public Text {
            if (text == null) {
                throw new IllegalArgumentException("a text message needs its text");
            }
        }
    }

    record Binary(byte[] data) implements WsFrame {
        public Binary {
            if (data == null) {
                throw new IllegalArgumentException("a binary message needs its bytes");
            }
        }
    }

    /** @param clean false when the connection was lost (code {@link #ABNORMAL}) */
    record Close(int code, String reason) implements WsFrame {
        public Close {
            reason = reason == null ? "" : reason;
        }

        public boolean clean() {
            return code != ABNORMAL;
        }

        /** Codes a close frame may carry on the wire (RFC 6455 §7.4): 1005, 1006 and 1015 are local only. */
        public boolean sendable() {
            return code >= 1000 && code <= 4999 && code != 1004 && code != NO_STATUS && code != ABNORMAL && code != 1015;
        }
    }
}
