package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue M on a real 3-node fleet ({@code java -jar gateway.jar} processes, one file:// bucket)
 * running {@code examples/chat}: WebSockets through the public listener, tunnelled between nodes
 * when the room lives elsewhere (messages and close codes both ways, a lost client seen as 1006),
 * hibernation (the idle room leaves memory with its members connected; the next message
 * constructs it again with their attachments intact), and one room with many clients in which
 * every message reaches every member, in order per sender.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ChatFleetIT {
    static final int CLIENTS = Integer.getInteger("ws.clients", 1000);
    static final long TTL_MS = 15_000;
    /** Liveness, not speed: the first upgrade of a cold fleet constructs Workers and cells, which a starved box can take a minute over. */
    static final long CONNECT_S = 180;
    // 100 messages x 1,000 members = 100,000 deliveries: enough for order per sender, short on a busy CI box.
    // bench/websockets/run.sh raises them for the fan-out number.
    static final int SENDERS = Integer.getInteger("ws.senders", 20);
    static final int MESSAGES = Integer.getInteger("ws.messages", 5);

    Path dir;
    Fleet fleet;
    Vertx vertx;
    WebSocketClient client;
    List<String> addrs = new ArrayList<>();

    @BeforeAll
    void startFleet() throws Exception {
        dir = Files.createTempDirectory("chat-fleet-it");
        // A generous lease: on a starved CI box a 5 s lease made nodes self-fence mid-test (test 4 fences one on purpose).
        Map<String, String> settings = Map.of("CELLD_TTL_MS", Long.toString(TTL_MS), "CELLD_IDLE_EVICT_MS", "3000");
        fleet = Fleet.onFileBucket(dir, settings);
        try (BucketStore b = fleet.openBucket()) {
            ChatDeployment.publish(b);
        }
        Map<String, Map<String, String>> nodes = new java.util.LinkedHashMap<>();
        for (String n : List.of("c1", "c2", "c3")) {
            nodes.put(n, settings);
        }
        for (NodeProcess node : ParallelStart.start(dir, fleet.bucketUrl, nodes).values()) {
            fleet.nodes.add(node);
            addrs.add(node.publicUrl("").substring("http://".length()));
        }
        vertx = Vertx.vertx();
        client = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(1 << 20).setConnectTimeout(30_000));
    }

    @AfterAll
    void stopFleet() {
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
        if (fleet != null) {
            fleet.close();
        }
    }

    /** The node whose cells hold at least {@code sockets} hibernatable sockets (the room's owner). */
    NodeProcess owner(int sockets) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < end) {
            for (NodeProcess n : fleet.nodes) {
                if (n.state().getInteger("hibernatable_sockets", 0) >= sockets) {
                    return n;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no node holds the room's sockets");
    }

    String addrOf(NodeProcess n) {
        return n.publicUrl("").substring("http://".length());
    }

    NodeProcess notOwner(NodeProcess owner) {
        return fleet.nodes.stream().filter(n -> n != owner).findFirst().orElseThrow();
    }

    WebSocket connect(String addr, String uri, BlockingQueue<Object> events) throws Exception {
        int c = addr.lastIndexOf(':');
        WebSocket ws = client.connect(Integer.parseInt(addr.substring(c + 1)), addr.substring(0, c), uri)
                .toCompletionStage().toCompletableFuture().get(CONNECT_S, TimeUnit.SECONDS);
        ws.textMessageHandler(events::add);
        ws.binaryMessageHandler(events::add);
        ws.closeHandler(v -> events.add(List.of(ws.closeStatusCode(), String.valueOf(ws.closeReason()))));
        return ws;
    }

    static Object next(BlockingQueue<Object> q) throws InterruptedException {
        Object o = q.poll(30, TimeUnit.SECONDS);
        assertThat(o).as("a frame within 30 s").isNotNull();
        return o;
    }

    @Test
    @Order(1)
    void aClientOnAnotherNodeIsTunnelledWithMessagesAndCloseCodesBothWays() throws Exception {
        BlockingQueue<Object> first = new LinkedBlockingQueue<>();
        WebSocket a = connect(addrs.get(0), "/probe/tunnel", first);
        a.writeTextMessage("hi");
        assertThat(next(first)).isEqualTo("echo hi");
        NodeProcess owner = owner(1);
        String remote = addrOf(notOwner(owner));

        BlockingQueue<Object> q = new LinkedBlockingQueue<>();
        WebSocket b = connect(remote, "/probe/tunnel", q);
        b.writeTextMessage("through the tunnel");
        assertThat(next(q)).isEqualTo("echo through the tunnel");
        b.writeBinaryMessage(Buffer.buffer(new byte[] {0, 1, 2, (byte) 255}));
        assertThat(((Buffer) next(q)).getBytes()).containsExactly(0, 1, 2, 255);
        b.writeTextMessage("close 4001 the object says bye");
        assertThat(next(q)).as("the Durable Object's close code and reason reach the client")
                .isEqualTo(List.of((short) 4001, "the object says bye"));
        // The client's answer travels back through the tunnel and completes the handshake: the object's
        // socket leaves (it stayed CLOSING for ever when the tunnel closed right after the first close).
        awaitTrue("the closed socket leaves the owner", () -> stateOf(owner).getInteger("hibernatable_sockets") == 1);

        BlockingQueue<Object> q2 = new LinkedBlockingQueue<>();
        WebSocket c = connect(remote, "/probe/tunnel", q2);
        c.writeTextMessage("x");
        assertThat(next(q2)).isEqualTo("echo x");
        c.close((short) 4002, "client leaving").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        dropWithoutClose(remote, "/probe/tunnel");
        awaitTrue("both closes recorded", () -> closes(remote).size() >= 2);
        JsonArray closes = closes(remote);
        assertThat(closes.getJsonObject(0).getMap()).as("the client's close code and reason reach the Durable Object")
                .containsEntry("code", 4002).containsEntry("reason", "client leaving").containsEntry("clean", 1);
        assertThat(closes.getJsonObject(1).getMap()).as("a client lost without a close frame is 1006, not clean")
                .containsEntry("code", 1006).containsEntry("clean", 0);
        a.close();
        awaitNoSockets();
    }

    /** Every earlier test's sockets are gone: node-wide counts now belong to the next test alone. */
    void awaitNoSockets() throws InterruptedException {
        awaitTrue("no hibernatable sockets left", () -> fleet.nodes.stream().allMatch(n -> stateOf(n).getInteger("hibernatable_sockets") == 0));
    }

    private JsonArray closes(String addr) {
        try {
            return new JsonArray(fleet.nodes.get(0).get("http://" + addr + "/probe/tunnel/closes").body());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A raw TCP client: completes the upgrade, then disconnects without a close frame. */
    private static void dropWithoutClose(String addr, String path) throws Exception {
        int c = addr.lastIndexOf(':');
        try (Socket s = new Socket(addr.substring(0, c), Integer.parseInt(addr.substring(c + 1)))) {
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                head.append((char) b);
            }
            assertThat(head.toString()).startsWith("HTTP/1.1 101");
            Thread.sleep(500); // the tunnel is up before the client vanishes
        }
    }

    static void awaitTrue(String what, BooleanSupplier c) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!c.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out: " + what);
            }
            Thread.sleep(100);
        }
    }

    @Test
    @Order(2)
    void anIdleRoomHibernatesAndWakesWithItsMembersAttachmentsIntact() throws Exception {
        AtomicInteger next = new AtomicInteger();
        ChatClient alice = new ChatClient(client, "hibernate", "alice", () -> addrs.get(next.getAndIncrement() % 3));
        ChatClient bob = new ChatClient(client, "hibernate", "bob", () -> addrs.get(next.getAndIncrement() % 3));
        alice.connect().get(CONNECT_S, TimeUnit.SECONDS);
        bob.connect().get(CONNECT_S, TimeUnit.SECONDS);
        alice.sendRaw("{\"type\":\"whoami\"}");
        JsonObject before = alice.nextOther(30);
        int constructions = before.getInteger("constructions");
        long joined = before.getJsonObject("attachment").getLong("joined");

        NodeProcess owner = owner(2);
        awaitTrue("the idle room hibernates", () -> stateOf(owner).getInteger("hibernated", 0) == 1);
        assertThat(stateOf(owner).getInteger("hibernatable_sockets")).as("members stay connected").isEqualTo(2);
        bob.sendRaw("ping");
        assertThat(bob.nextOther(30).getString("text")).isEqualTo("pong");
        assertThat(stateOf(owner).getInteger("hibernated")).as("the auto-response does not wake the room").isEqualTo(1);

        alice.sendRaw("{\"type\":\"whoami\"}");
        JsonObject after = alice.nextOther(30);
        assertThat(after.getInteger("constructions")).as("the constructor ran again on wake").isEqualTo(constructions + 1);
        assertThat(after.getJsonObject("attachment").getString("user")).isEqualTo("alice");
        assertThat(after.getJsonObject("attachment").getLong("joined")).as("attachment kept by the host").isEqualTo(joined);
        assertThat(owner.events("cell.hibernated")).isNotEmpty();
        assertThat(owner.events("cell.woke")).isNotEmpty();
        assertThat(alice.closeCodes).isEmpty();
        alice.stop();
        bob.stop();
        awaitNoSockets();
    }

    private static JsonObject stateOf(NodeProcess n) {
        try {
            return n.state();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    @Order(3)
    void manyClientsInOneRoomGetEveryMessageInOrderPerSender() throws Exception {
        List<ChatClient> clients = new ArrayList<>();
        long t0 = System.nanoTime();
        List<CompletableFuture<Void>> connecting = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            String addr = addrs.get(i % addrs.size());
            ChatClient c = new ChatClient(client, "crowd", "u" + i, () -> addr);
            clients.add(c);
            connecting.add(c.connect());
            if (connecting.size() % 100 == 0) {
                CompletableFuture.allOf(connecting.toArray(CompletableFuture[]::new)).get(300, TimeUnit.SECONDS);
            }
        }
        CompletableFuture.allOf(connecting.toArray(CompletableFuture[]::new)).get(300, TimeUnit.SECONDS);
        long connectedMs = (System.nanoTime() - t0) / 1_000_000;
        NodeProcess owner = owner(CLIENTS);

        long t1 = System.nanoTime();
        List<CompletableFuture<Void>> senders = new ArrayList<>();
        for (int s = 0; s < SENDERS; s++) {
            ChatClient c = clients.get(s * (CLIENTS / SENDERS));
            senders.add(CompletableFuture.runAsync(() -> {
                for (int m = 1; m <= MESSAGES; m++) {
                    c.send(Integer.toString(m), "message " + m + " from " + c.user).join();
                }
            }));
        }
        CompletableFuture.allOf(senders.toArray(CompletableFuture[]::new)).get(600, TimeUnit.SECONDS);
        int expected = SENDERS * MESSAGES;
        awaitTrue("every member received every message", () -> clients.stream().allMatch(c -> total(c) >= expected));
        long fanMs = Math.max(1, (System.nanoTime() - t1) / 1_000_000);

        List<String> ordered = new ArrayList<>();
        for (int i = 1; i <= MESSAGES; i++) {
            ordered.add(Integer.toString(i));
        }
        for (ChatClient c : clients) {
            for (int s = 0; s < SENDERS; s++) {
                String sender = "u" + s * (CLIENTS / SENDERS);
                assertThat(c.from(sender)).as("%s got %s's messages, all, in order", c.user, sender).isEqualTo(ordered);
            }
            assertThat(c.closeCodes).as(c.user + " stayed connected").isEmpty();
        }
        long deliveries = (long) expected * CLIENTS;
        System.out.printf("chat fan-out: %d clients on %d nodes (connected in %d ms), %d senders x %d messages = %d messages, "
                        + "%d deliveries in %d ms = %d deliveries/s%n", CLIENTS, addrs.size(), connectedMs, SENDERS, MESSAGES, expected,
                deliveries, fanMs, deliveries * 1000 / fanMs);
        clients.forEach(ChatClient::stop);
        awaitNoSockets();
    }

    @Test
    @Order(4)
    void aFencedOwnerClosesItsRoomsSocketsWith1012() throws Exception {
        AtomicInteger next = new AtomicInteger();
        List<ChatClient> members = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            ChatClient c = new ChatClient(client, "fenced", "f" + i, () -> addrs.get(next.getAndIncrement() % 3));
            c.connect().get(CONNECT_S, TimeUnit.SECONDS);
            members.add(c);
        }
        NodeProcess owner = owner(6);
        owner.signal("STOP");
        try {
            Thread.sleep(TTL_MS + 5000); // past the owner's TTL: its lease is gone when it runs again
        } finally {
            owner.signal("CONT");
        }
        // Issue 29: its lease lapsed, so it degrades (every cell stopped, sockets closed) and rejoins, no exit.
        FenceOutcome outcome = FenceOutcome.await(owner, Duration.ofSeconds(60));
        assertThat(outcome.asExpected()).as("the owner fenced itself as its fence's kind says: %s", outcome).isTrue();
        if (outcome.exit() != null) {
            fleet.nodes.remove(owner);
        }
        for (ChatClient c : members) {
            awaitTrue(c.user + " closed", () -> !c.closeCodes.isEmpty());
            assertThat(c.closeCodes).as("%s (direct or tunnelled) is told to reconnect", c.user).containsExactly(1012);
        }
    }

    private static int total(ChatClient c) {
        return c.received.values().stream().mapToInt(List::size).sum();
    }
}
