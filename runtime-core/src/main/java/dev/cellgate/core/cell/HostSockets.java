package dev.cellgate.core.cell;

import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.spi.js.HibernatableSockets;
import dev.cellgate.core.spi.js.WebSocketEnd;
import dev.cellgate.core.spi.js.WsFrame;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cell's hibernatable WebSockets, owned by the host: they outlive the JavaScript instance, so
 * an idle cell can drop its context (hibernate) while its clients stay connected. A frame that
 * arrives is posted to the cell's executor; a text frame equal to the auto-response request is
 * answered here without waking the cell, anything else goes to {@link Events#deliver} (which
 * re-activates a hibernated cell). Frames the cell sends leave through {@code gated}: after the
 * writes that precede them are durable. Touched only on the cell's executor.
 */
public final class HostSockets implements HibernatableSockets {
    private static final Logger LOG = LoggerFactory.getLogger(HostSockets.class);

    /** Where the cell's events go. */
    public interface Events {
        /** Delivers a message or close to the cell, waking it if hibernated; completes when handled. */
        CompletableFuture<Void> deliver(String id, WsFrame frame);
    }

    private final String scope;
    private final Executor executor;
    private final Consumer<Runnable> gated;
    private final Events events;
    private final LongSupplier clock;
    private final Map<String, Socket> sockets = new LinkedHashMap<>();
    private long nextId;
    private String[] auto;

    private static final class Socket {
        final WebSocketEnd end;
        final List<String> tags;
        byte[] attachment;
        long autoResponseMs = -1;
        /** The cell sent a close: a close from the peer now only completes the handshake. */
        boolean closing;
        /** The peer's close arrived: the close event is being handled. */
        boolean peerClosed;

        Socket(WebSocketEnd end, List<String> tags) {
            this.end = end;
            this.tags = tags;
        }
    }

    /**
     * @param gated runs an outbound frame once the writes made before it are durable, in order
     */
    public HostSockets(String scope, Executor executor, Consumer<Runnable> gated, Events events, LongSupplier clock) {
        this.scope = scope;
        this.executor = executor;
        this.gated = gated;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public String accept(WebSocketEnd end, List<String> tags) {
        if (tags.size() > MAX_TAGS) {
            throw new IllegalArgumentException("a Hibernatable WebSocket cannot have more than " + MAX_TAGS + " tags");
        }
        for (String t : tags) {
            if (t.length() > MAX_TAG_LENGTH) {
                throw new IllegalArgumentException("\"" + t + "\" is longer than the max tag length (" + MAX_TAG_LENGTH + " characters).");
            }
        }
        String id = Long.toString(++nextId);
        sockets.put(id, new Socket(end, List.copyOf(tags)));
        end.receive(frame -> executor.execute(() -> arrived(id, frame)));
        return id;
    }

    private void arrived(String id, WsFrame frame) {
        Socket s = sockets.get(id);
        if (s == null || s.peerClosed) {
            return;
        }
        if (frame instanceof WsFrame.Text t && auto != null && auto[0].equals(t.text())) {
            s.autoResponseMs = clock.getAsLong();
            String response = auto[1];
            gated.accept(() -> s.end.send(new WsFrame.Text(response)));
            return;
        }
        if (frame instanceof WsFrame.Close) {
            s.peerClosed = true;
            if (s.closing) {
                sockets.remove(id); // the answer to our own close: the handshake is complete
                return;
            }
            // The socket stays listed (CLOSING) while its close event is handled, as on workerd.
            events.deliver(id, frame).whenComplete((v, e) -> executor.execute(() -> sockets.remove(id, s)));
            return;
        }
        events.deliver(id, frame).whenComplete((v, e) -> {
            if (e != null) {
                LOG.atDebug().setMessage("websocket.event_failed").addKeyValue("scope", scope).addKeyValue("socket", id)
                        .addKeyValue("error", Errors.rootMessage(e)).log();
            }
        });
    }

    @Override
    public List<String> ids(String tag) {
        List<String> out = new ArrayList<>();
        sockets.forEach((id, s) -> {
            if (tag == null || s.tags.contains(tag)) {
                out.add(id);
            }
        });
        return out;
    }

    @Override
    public List<String> tags(String id) {
        Socket s = sockets.get(id);
        return s == null ? List.of() : s.tags;
    }

    @Override
    public void send(String id, WsFrame frame) {
        Socket s = sockets.get(id);
        if (s == null || s.closing) {
            throw new IllegalStateException("Can't call WebSocket send() after close().");
        }
        if (frame instanceof WsFrame.Close) {
            s.closing = true;
            if (s.peerClosed) {
                sockets.remove(id);
            }
        }
        gated.accept(() -> s.end.send(frame));
    }

    @Override
    public int readyState(String id) {
        Socket s = sockets.get(id);
        if (s == null) {
            return CLOSED;
        }
        return s.closing || s.peerClosed ? CLOSING : OPEN;
    }

    @Override
    public byte[] attachment(String id) {
        Socket s = sockets.get(id);
        return s == null ? null : s.attachment;
    }

    @Override
    public void attachment(String id, byte[] serialized) {
        if (serialized != null && serialized.length > MAX_ATTACHMENT_BYTES) {
            throw new IllegalArgumentException("A WebSocket 'attachment' cannot be larger than " + MAX_ATTACHMENT_BYTES
                    + " bytes.'attachment' was " + serialized.length + " bytes.");
        }
        Socket s = sockets.get(id);
        if (s != null) {
            s.attachment = serialized;
        }
    }

    @Override
    public void autoResponse(String request, String response) {
        if (request == null || response == null) {
            auto = null;
            return;
        }
        check("Request", request);
        check("Response", response);
        auto = new String[] {request, response};
    }

    private static void check(String what, String s) {
        int n = s.getBytes(StandardCharsets.UTF_8).length;
        if (n > MAX_AUTO_RESPONSE_BYTES) {
            throw new IllegalArgumentException(what + " cannot be larger than " + MAX_AUTO_RESPONSE_BYTES
                    + " bytes. A " + what.toLowerCase(java.util.Locale.ROOT) + " of size " + n + " was provided.");
        }
    }

    @Override
    public String[] autoResponse() {
        return auto == null ? null : auto.clone();
    }

    @Override
    public OptionalLong autoResponseTimestamp(String id) {
        Socket s = sockets.get(id);
        return s == null || s.autoResponseMs < 0 ? OptionalLong.empty() : OptionalLong.of(s.autoResponseMs);
    }

    /** Open sockets (the cell hibernates rather than leaves while there are any). */
    public int count() {
        return sockets.size();
    }

    /**
     * Closes every socket with {@code code}: the cell is leaving this node (handoff, eviction
     * without hibernation). Through the output gate, so frames already sent go out first.
     */
    public void closeAll(int code, String reason) {
        WsFrame.Close close = new WsFrame.Close(code, reason);
        for (Socket s : sockets.values()) {
            if (!s.closing) {
                gated.accept(() -> s.end.send(close));
            }
        }
        sockets.clear();
    }

    /** Closes every socket at once, bypassing the gate: the cell was reset and its pending writes are lost. */
    public void abort(int code, String reason) {
        WsFrame.Close close = new WsFrame.Close(code, reason);
        for (Socket s : sockets.values()) {
            s.end.send(close);
        }
        sockets.clear();
    }
}
