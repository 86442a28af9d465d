package dev.cellgate.core.spi.js;

import java.nio.ByteBuffer;
import java.util.concurrent.Flow;

/**
 * An HTTP body crossing the seam between host and engine: nothing, bytes already in memory, or a
 * stream read with back-pressure (large uploads, streamed responses).
 */
public sealed interface Body {

    Body EMPTY = new Empty();

    static Body of(byte[] bytes) {
        return bytes == null || bytes.length == 0 ? EMPTY : new Bytes(bytes);
    }

    /** Size in bytes when known in advance, else -1. */
    long length();

    record Empty() implements Body {
        @Override
        public long length() {
            return 0;
        }
    }

    record Bytes(byte[] data) implements Body {
        @Override
        public long length() {
            return data.length;
        }
    }

    /**
     * A body produced over time. The publisher accepts exactly one subscriber; an error signalled
     * on it aborts the body (the HTTP layer resets the connection rather than truncating silently).
     */
    record Stream(Flow.Publisher<ByteBuffer> publisher, long length) implements Body {
    }
}
