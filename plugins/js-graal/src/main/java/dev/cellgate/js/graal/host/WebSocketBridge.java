package dev.cellgate.js.graal.host;

import dev.cellgate.core.spi.js.CellHost;
import dev.cellgate.core.spi.js.HibernatableSockets;
import dev.cellgate.core.spi.js.InstanceHost;
import dev.cellgate.core.spi.js.WebSocketEnd;
import dev.cellgate.core.spi.js.WebSocketPipe;
import dev.cellgate.core.spi.js.WsFrame;
import dev.cellgate.js.graal.instance.JsInstance;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyArray;

/**
 * What {@code websocket.js} asks of Java, one per context. Pairs are {@link WebSocketPipe}s; a
 * socket accepted here ({@code accept()}) delivers its frames as turns of this instance and keeps
 * the instance busy while open; frames it sends leave through the host's output gate
 * ({@link InstanceHost#afterDurable}). Hibernatable sockets ({@code ctx.acceptWebSocket}) belong
 * to the cell host ({@link HibernatableSockets}) and are addressed by id. Everything runs on the
 * instance's executor. A refused call returns null (or false) and leaves its message for
 * {@link #takeError()}, which JavaScript throws with the right class.
 */
public final class WebSocketBridge {
    /** Listener kinds (the first argument of an accepted socket's listener). */
    static final int TEXT = 1;
    static final int BINARY = 2;
    static final int CLOSE = 3;

    private final JsInstance instance;
    private final Set<SocketHandle> open = new LinkedHashSet<>();
    private final HostErrorSlot errors = new HostErrorSlot();

    public WebSocketBridge(JsInstance instance) {
        this.instance = instance;
    }

    @HostAccess.Export
    public String takeError() {
        return errors.take();
    }

    private <T> T guard(Supplier<T> op) {
        return errors.guard(op);
    }

    // ---- pairs and accepted sockets ----

    @HostAccess.Export
    public Object newPair() {
        WebSocketEnd[] p = WebSocketPipe.pair();
        return ProxyArray.fromArray(new SocketHandle(p[0]), new SocketHandle(p[1]));
    }

    /** {@code accept()}: frames become {@code listener(kind, value, code, reason)} turns here. */
    @HostAccess.Export
    public void accept(SocketHandle h, Value listener) {
        if (h.accepted) {
            return;
        }
        h.accepted = true;
        h.lifetime = new SocketEvent("websocket open in " + instance.label(), true);
        instance.hold(h.lifetime);
        open.add(h);
        h.end().receive(frame -> instance.post(new SocketEvent("websocket message to " + instance.label(), false),
                () -> arrive(h, listener, frame)));
    }

    private void arrive(SocketHandle h, Value listener, WsFrame frame) {
        switch (frame) {
            case WsFrame.Text t -> listener.executeVoid(TEXT, t.text(), 0, "");
            case WsFrame.Binary b -> listener.executeVoid(BINARY, ByteBuffer.wrap(b.data()), 0, "");
            case WsFrame.Close c -> {
                ended(h);
                listener.executeVoid(CLOSE, null, c.code(), c.reason());
            }
        }
    }

    /** Either side closed: the socket no longer keeps the instance busy. */
    private void ended(SocketHandle h) {
        h.closed = true;
        if (open.remove(h) && h.lifetime != null) {
            instance.release(h.lifetime);
        }
    }

    @HostAccess.Export
    public void sendText(SocketHandle h, String text) {
        out(h, new WsFrame.Text(text));
    }

    @HostAccess.Export
    public void sendBinary(SocketHandle h, Value buffer, int offset, int length) {
        out(h, new WsFrame.Binary(HostBridge.bytes(buffer, offset, length)));
    }

    @HostAccess.Export
    public void close(SocketHandle h, int code, String reason) {
        out(h, new WsFrame.Close(code, reason));
        ended(h);
    }

    private void out(SocketHandle h, WsFrame frame) {
        WebSocketEnd end = h.end();
        instance.host().afterDurable(() -> end.send(frame));
    }

    /**
     * The cell is leaving this node: closes every socket accepted here with {@code code}, after the
     * frames sent before (through the output gate).
     */
    public void closeAll(int code, String reason) {
        for (SocketHandle h : List.copyOf(open)) {
            close(h, code, reason);
        }
    }

    /** The context is going away: its sockets close at once (1012, reconnect). */
    public void release() {
        for (SocketHandle h : List.copyOf(open)) {
            h.end().send(new WsFrame.Close(WsFrame.SERVICE_RESTART, "instance restarted; reconnect"));
            ended(h);
        }
    }

    // ---- hibernatable sockets: the cell host keeps them, JavaScript names them by id ----

    private HibernatableSockets hibernatable() {
        if (!(instance.host() instanceof CellHost cell)) {
            throw new IllegalStateException("only a Durable Object can accept hibernatable WebSockets");
        }
        return cell.webSockets();
    }

    @HostAccess.Export
    public String hAccept(SocketHandle h, Value tags) {
        return guard(() -> {
            List<String> list = new ArrayList<>();
            for (long i = 0; i < tags.getArraySize(); i++) {
                list.add(tags.getArrayElement(i).asString());
            }
            String id = hibernatable().accept(h.end(), list);
            h.accepted = true;
            return id;
        });
    }

    @HostAccess.Export
    public Object hIds(String tag) {
        return ProxyArray.fromList(new ArrayList<>(hibernatable().ids(tag)));
    }

    @HostAccess.Export
    public Object hTags(String id) {
        return ProxyArray.fromList(new ArrayList<>(hibernatable().tags(id)));
    }

    @HostAccess.Export
    public int hReadyState(String id) {
        return hibernatable().readyState(id);
    }

    @HostAccess.Export
    public Boolean hSendText(String id, String text) {
        return guard(() -> {
            hibernatable().send(id, new WsFrame.Text(text));
            return true;
        });
    }

    @HostAccess.Export
    public Boolean hSendBinary(String id, Value buffer, int offset, int length) {
        byte[] b = HostBridge.bytes(buffer, offset, length);
        return guard(() -> {
            hibernatable().send(id, new WsFrame.Binary(b));
            return true;
        });
    }

    @HostAccess.Export
    public Boolean hClose(String id, int code, String reason) {
        return guard(() -> {
            hibernatable().send(id, new WsFrame.Close(code, reason));
            return true;
        });
    }

    @HostAccess.Export
    public ByteBuffer hAttachment(String id) {
        byte[] b = hibernatable().attachment(id);
        return b == null ? null : ByteBuffer.wrap(b);
    }

    @HostAccess.Export
    public Boolean hSetAttachment(String id, Value buffer, int offset, int length) {
        byte[] b = buffer == null || buffer.isNull() ? null : HostBridge.bytes(buffer, offset, length);
        return guard(() -> {
            hibernatable().attachment(id, b);
            return true;
        });
    }

    @HostAccess.Export
    public Boolean hSetAutoResponse(String request, String response) {
        return guard(() -> {
            hibernatable().autoResponse(request, response);
            return true;
        });
    }

    @HostAccess.Export
    public Object hAutoResponse() {
        String[] a = hibernatable().autoResponse();
        return a == null ? null : ProxyArray.fromArray((Object[]) a);
    }

    /** Epoch ms of the socket's last automatic response, or -1. */
    @HostAccess.Export
    public double hAutoResponseTime(String id) {
        return hibernatable().autoResponseTimestamp(id).orElse(-1);
    }
}
