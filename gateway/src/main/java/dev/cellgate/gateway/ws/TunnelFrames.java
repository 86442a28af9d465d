package dev.cellgate.gateway.ws;

import dev.cellgate.core.spi.js.WsFrame;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/**
 * How a socket's messages travel through a peer tunnel: each one binary message, a kind byte
 * then the payload — {@code 'T'} UTF-8 text, {@code 'B'} bytes, {@code 'C'} a close (code as two
 * bytes, big-endian, then the UTF-8 reason). Carrying the close as data keeps codes that may not
 * appear on the wire (1005, 1006) exact between the two nodes.
 */
public final class TunnelFrames {
    static final byte TEXT = 'T';
    static final byte BINARY = 'B';
    static final byte CLOSE = 'C';

    private TunnelFrames() {
    }

    public static Buffer encode(WsFrame frame) {
        return switch (frame) {
            case WsFrame.Text t -> Buffer.buffer(1 + t.text().length()).appendByte(TEXT).appendString(t.text());
            case WsFrame.Binary b -> Buffer.buffer(1 + b.data().length).appendByte(BINARY).appendBytes(b.data());
            case WsFrame.Close c -> Buffer.buffer().appendByte(CLOSE).appendUnsignedShort(c.code())
                    .appendBytes(c.reason().getBytes(StandardCharsets.UTF_8));
        };
    }

    /** @throws IllegalArgumentException for a message that is not a tunnel frame */
    public static WsFrame decode(Buffer b) {
        if (b.length() < 1) {
            throw new IllegalArgumentException("empty tunnel message");
        }
        byte kind = b.getByte(0);
        return switch (kind) {
            case TEXT -> new WsFrame.Text(b.getString(1, b.length(), "UTF-8"));
            case BINARY -> new WsFrame.Binary(b.getBytes(1, b.length()));
            case CLOSE -> {
                if (b.length() < 3) {
                    throw new IllegalArgumentException("tunnel close without a code");
                }
                yield new WsFrame.Close(b.getUnsignedShort(1), b.getString(3, b.length(), "UTF-8"));
            }
            default -> throw new IllegalArgumentException("unknown tunnel message kind " + kind);
        };
    }
}
