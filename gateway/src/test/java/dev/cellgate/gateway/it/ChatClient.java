package dev.cellgate.gateway.it;

import io.vertx.core.Future;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One member of an {@code examples/chat} room over a real WebSocket (Vert.x client): what it
 * received per sender, which of its own messages were acknowledged, the close codes it saw. With
 * {@link #reconnecting} it reconnects after any close (to the next node {@code nodes} gives) and
 * resends what was not acknowledged, as a well-behaved client does after 1012.
 */
final class ChatClient {
    final String user;
    private final WebSocketClient client;
    private final String room;
    private final Supplier<String> nodes;
    private volatile WebSocket ws;
    private volatile boolean reconnecting;
    private volatile boolean stopped;
    /** Message ids received from each sender, in arrival order (all connections). */
    final Map<String, List<String>> received = new ConcurrentHashMap<>();
    final Map<String, Long> acked = new ConcurrentHashMap<>();
    final Map<String, String> sent = new ConcurrentHashMap<>();
    final List<Integer> closeCodes = new CopyOnWriteArrayList<>();
    final BlockingQueue<JsonObject> other = new LinkedBlockingQueue<>();
    final List<String> connectErrors = new CopyOnWriteArrayList<>();
    private volatile CompletableFuture<Void> ackWait = new CompletableFuture<>();

    /** @param nodes gives a {@code host:port} to (re)connect to; called once per attempt */
    ChatClient(WebSocketClient client, String room, String user, Supplier<String> nodes) {
        this.client = client;
        this.room = room;
        this.user = user;
        this.nodes = nodes;
    }

    ChatClient reconnecting() {
        this.reconnecting = true;
        return this;
    }

    CompletableFuture<Void> connect() {
        String addr = nodes.get();
        int c = addr.lastIndexOf(':');
        Future<WebSocket> f = client.connect(Integer.parseInt(addr.substring(c + 1)), addr.substring(0, c), "/room/" + room + "?user=" + user);
        CompletableFuture<Void> out = new CompletableFuture<>();
        f.onComplete(ar -> {
            if (ar.failed()) {
                connectErrors.add(addr + ": " + ar.cause());
                out.completeExceptionally(ar.cause());
                return;
            }
            WebSocket s = ar.result();
            ws = s;
            s.textMessageHandler(this::onText);
            s.closeHandler(v -> onClose(s));
            out.complete(null);
            if (reconnecting) {
                resendUnacked();
            }
        });
        return out;
    }

    private void onText(String text) {
        if (!text.startsWith("{")) {
            other.add(new JsonObject().put("type", "raw").put("text", text)); // the host's auto-response
            return;
        }
        JsonObject m = new JsonObject(text);
        switch (m.getString("type")) {
            case "msg" -> received.computeIfAbsent(m.getString("from"), k -> new CopyOnWriteArrayList<>()).add(m.getString("id"));
            case "ack" -> {
                acked.put(m.getString("id"), m.getLong("seq"));
                ackWait.complete(null);
            }
            default -> other.add(m);
        }
    }

    private void onClose(WebSocket s) {
        Short code = s.closeStatusCode();
        closeCodes.add(code == null ? -1 : (int) code);
        ackWait.completeExceptionally(new IllegalStateException("closed " + code));
        if (reconnecting && !stopped) {
            reconnectSoon(0);
        }
    }

    private void reconnectSoon(int attempt) {
        if (stopped) {
            return;
        }
        CompletableFuture.delayedExecutor(Math.min(2000, 100L * (attempt + 1)), TimeUnit.MILLISECONDS).execute(() ->
                connect().exceptionally(e -> {
                    reconnectSoon(attempt + 1);
                    return null;
                }));
    }

    private void resendUnacked() {
        for (Map.Entry<String, String> e : sent.entrySet()) {
            if (!acked.containsKey(e.getKey())) {
                write(e.getKey(), e.getValue());
            }
        }
    }

    /** Sends a message; the returned future completes on its ack or fails when the socket closes first. */
    CompletableFuture<Void> send(String id, String text) {
        sent.put(id, text);
        ackWait = new CompletableFuture<>();
        CompletableFuture<Void> mine = ackWait;
        if (!write(id, text)) {
            mine.completeExceptionally(new IllegalStateException("not connected"));
        }
        return mine;
    }

    private boolean write(String id, String text) {
        WebSocket s = ws;
        if (s == null || s.isClosed()) {
            return false;
        }
        s.writeTextMessage(new JsonObject().put("type", "msg").put("id", id).put("text", text).encode());
        return true;
    }

    void sendRaw(String text) {
        ws.writeTextMessage(text);
    }

    /** The next frame other than messages and acks (whoami answers, pongs arrive as raw text). */
    JsonObject nextOther(int seconds) throws InterruptedException {
        JsonObject m = other.poll(seconds, TimeUnit.SECONDS);
        if (m == null) {
            throw new AssertionError(user + ": no answer within " + seconds + " s");
        }
        return m;
    }

    WebSocket socket() {
        return ws;
    }

    void stop() {
        stopped = true;
        WebSocket s = ws;
        if (s != null && !s.isClosed()) {
            s.close();
        }
    }

    /** Ids received from {@code sender}, in order. */
    List<String> from(String sender) {
        return new ArrayList<>(received.getOrDefault(sender, List.of()));
    }
}
