package dev.cellgate.js.graal.host;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.js.graal.instance.JsEvent;
import dev.cellgate.js.graal.instance.JsInstance;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.graalvm.polyglot.Value;

/**
 * Bodies across the boundary. JavaScript hands a body over as {@code (kind, value, offset, length)}:
 * kind {@link #NONE}; {@link #STRING} (value is a string: encoded here, cheaper than TextEncoder);
 * {@link #BYTES} (value is an ArrayBuffer, with offset and length); {@link #STREAM} (value is a
 * ReadableStream reader; length is what the stream promises, or -1). Java hands one to JavaScript
 * as {@code (kind, value)} with value a ByteBuffer ({@link #BYTES}) or an {@link InboundStream}
 * ({@link #STREAM}).
 */
public final class BodyArgs {
    public static final int NONE = 0;
    public static final int STRING = 1;
    public static final int BYTES = 2;
    public static final int STREAM = 3;
    /** Not a body: a 101 response's WebSocket; the value is a {@link SocketHandle}. */
    public static final int WEBSOCKET = 4;

    private BodyArgs() {
    }

    public static Body fromJs(JsInstance instance, JsEvent event, JsFunctions fns, int kind, Value value, int offset, int length) {
        return switch (kind) {
            case NONE -> Body.EMPTY;
            case STRING -> Body.of(value.asString().getBytes(StandardCharsets.UTF_8));
            case BYTES -> {
                byte[] b = new byte[length];
                value.readBuffer(offset, b, 0, length);
                yield Body.of(b);
            }
            // length: what the stream promises (a FixedLengthStream's readable), else -1
            case STREAM -> new Body.Stream(new OutboundBodyPublisher(instance, event, fns.pumpOne(), value), length < 0 ? -1 : length);
            default -> throw new IllegalArgumentException("unknown body kind " + kind);
        };
    }

    public static int kindOf(Body body) {
        return switch (body) {
            case Body.Empty e -> NONE;
            case Body.Bytes b -> BYTES;
            case Body.Stream s -> STREAM;
        };
    }

    public static Object valueOf(JsInstance instance, JsEvent event, Body body) {
        return switch (body) {
            case Body.Empty e -> null;
            case Body.Bytes b -> ByteBuffer.wrap(b.data());
            case Body.Stream s -> new InboundStream(instance, event, s.publisher());
        };
    }
}
