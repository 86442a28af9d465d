package dev.cellgate.core.spi.js;

import java.util.List;
import java.util.OptionalLong;

/**
 * The WebSockets a Durable Object accepted with {@code ctx.acceptWebSocket(ws, tags)}: kept by the
 * host, not by the JavaScript context, so the cell may be evicted from memory while they stay
 * open (hibernation). A frame that arrives becomes {@link CellInstance#webSocketEvent} on the
 * cell, which the host re-activates first if it was hibernated. Sockets have ids unique within
 * the cell's lifetime on this node. Called only on the cell's executor.
 */
public interface HibernatableSockets {
    int MAX_TAGS = 10;
    int MAX_TAG_LENGTH = 256;
    /** Serialized attachment limit, as workerd's. */
    int MAX_ATTACHMENT_BYTES = 16384;
    /** Auto-response request and response limit, as workerd's. */
    int MAX_AUTO_RESPONSE_BYTES = 2048;

    /**
     * Takes over {@code end} (the server end of a pair): from now on the host owns the connection.
     *
     * @return the socket's id
     * @throws IllegalArgumentException with workerd's message when the tags break a limit
     */
    String accept(WebSocketEnd end, List<String> tags);

    /** Ids of the open sockets, oldest first; with a tag, only those carrying it. */
    List<String> ids(String tag);

    /** The tags a socket was accepted with (empty for an unknown id). */
    List<String> tags(String id);

    /** Sends a frame on a socket after every write made so far is durable (the output gate); a close ends it. */
    void send(String id, WsFrame frame);

    int OPEN = 1;
    int CLOSING = 2;
    int CLOSED = 3;

    /**
     * {@link #OPEN}; {@link #CLOSING} once either side sent a close (until the close event was
     * handled); {@link #CLOSED} when the socket is gone (or the id unknown).
     */
    int readyState(String id);

    /** The socket's serialized attachment, or null. */
    byte[] attachment(String id);

    /** Keeps a serialized attachment with the socket (null removes it). */
    void attachment(String id, byte[] serialized);

    /**
     * Answers a text message equal to {@code request} with {@code response} without waking the
     * cell; both null clears it.
     */
    void autoResponse(String request, String response);

    /** {@code [request, response]}, or null when none is set. */
    String[] autoResponse();

    /** When the socket last got an automatic response (epoch ms). */
    OptionalLong autoResponseTimestamp(String id);
}
