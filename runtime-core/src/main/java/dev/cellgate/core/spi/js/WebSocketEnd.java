package dev.cellgate.core.spi.js;

import java.util.function.Consumer;

/**
 * One end of a WebSocket connection as host and engine hand it to each other: the two ends of a
 * {@code WebSocketPair} ({@link WebSocketPipe}), the public connection a Worker answered with
 * {@code 101}, or a tunnel to the node that owns the cell. What one end sends, the other end's
 * receiver gets, in order.
 *
 * <p>A Worker's {@code new Response(null, {status: 101, webSocket: client})} hands the client end
 * to the host in {@link HttpResponseData#webSocket()}; the host then connects it to the network.
 */
public interface WebSocketEnd {

    /**
     * Sends a message to the other end; any thread. After this end sent a {@link WsFrame.Close},
     * later frames are dropped: the connection is closing.
     */
    void send(WsFrame frame);

    /**
     * Sets who receives what the other end sends; once. Frames that arrived before are delivered
     * first, in order. The receiver is called on the sender's thread and must not block: post the
     * frame to your own executor.
     *
     * @throws IllegalStateException when a receiver was already set
     */
    void receive(Consumer<WsFrame> receiver);

    /** True once this end sent a close or received one. */
    boolean closed();
}
