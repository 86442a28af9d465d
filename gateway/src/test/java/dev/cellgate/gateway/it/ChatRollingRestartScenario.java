package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue M's handoff on a real 3-node fleet running {@code examples/chat}: members of one room
 * (connected to all three nodes, most of them tunnelled to the room's owner) keep sending while
 * every node is stopped gracefully (SIGTERM, handoff) and started again in turn. Members are told
 * to reconnect with 1012 when the room moves, reconnect to a running node and resend what was not
 * acknowledged; afterwards every acknowledged message is in the room's stored history, once.
 */
class ChatRollingRestartScenario {
    static final int CLIENTS = Integer.getInteger("ws.restart.clients", 60);
    static final int SENDERS = Integer.getInteger("ws.restart.senders", 15);

    @TempDir
    Path dir;

    @Test
    void membersReconnectAfter1012AndNoAcknowledgedMessageIsLost() throws Exception {
        Vertx vertx = Vertx.vertx();
        try (Fleet fleet = Fleet.onFileBucket(dir, Map.of("CELLD_TTL_MS", "15000"))) {
            try (BucketStore b = fleet.openBucket()) {
                ChatDeployment.publish(b);
            }
            List<String> names = List.of("r1", "r2", "r3");
            Map<String, Integer> ports = new HashMap<>();
            List<String> addrs = new ArrayList<>();
            Map<String, Map<String, String>> nodes = new java.util.LinkedHashMap<>();
            for (String n : names) {
                int port = NodeProcess.freePort();
                ports.put(n, port);
                addrs.add("127.0.0.1:" + port);
                nodes.put(n, Map.of("CELLD_TTL_MS", "15000", "CELLD_ADDR", "127.0.0.1:" + port));
            }
            fleet.nodes.addAll(ParallelStart.start(dir, fleet.bucketUrl, nodes).values());
            WebSocketClient ws = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(1 << 20).setConnectTimeout(10_000));
            AtomicInteger rr = new AtomicInteger();
            List<ChatClient> clients = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                ChatClient c = new ChatClient(ws, "rolling", "m" + i, () -> addrs.get(Math.floorMod(rr.getAndIncrement(), addrs.size())))
                        .reconnecting();
                c.connect().get(180, java.util.concurrent.TimeUnit.SECONDS);
                clients.add(c);
            }

            AtomicBoolean stop = new AtomicBoolean();
            Map<String, AtomicInteger> sentBy = new ConcurrentHashMap<>();
            List<Thread> senders = new ArrayList<>();
            for (int s = 0; s < SENDERS; s++) {
                ChatClient c = clients.get(s * (CLIENTS / SENDERS));
                AtomicInteger n = sentBy.computeIfAbsent(c.user, k -> new AtomicInteger());
                Thread t = new Thread(() -> {
                    while (!stop.get()) {
                        String id = Integer.toString(n.incrementAndGet());
                        c.send(id, "m " + id + " from " + c.user);
                        long end = System.currentTimeMillis() + 60_000;
                        // Acked on this connection, or on a later one after the resend that follows a reconnect.
                        while (!c.acked.containsKey(id) && System.currentTimeMillis() < end) {
                            sleep(20);
                        }
                    }
                }, "sender-" + c.user);
                t.start();
                senders.add(t);
            }
            Thread.sleep(3000);
            for (String name : names) {
                NodeProcess old = fleet.nodes.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
                old.sigterm();
                assertThat(old.waitForExit(Duration.ofSeconds(90))).as(name + " exit code").isZero();
                fleet.nodes.remove(old);
                fleet.start(name, Map.of("CELLD_ADDR", "127.0.0.1:" + ports.get(name)));
                Thread.sleep(3000);
            }
            stop.set(true);
            for (Thread t : senders) {
                t.join(120_000);
            }

            NodeProcess any = fleet.nodes.get(0);
            JsonArray history = new JsonArray(any.get(any.publicUrl("/room/rolling/history")).body());
            Map<String, Long> stored = new HashMap<>();
            for (int i = 0; i < history.size(); i++) {
                JsonObject m = history.getJsonObject(i);
                Long dup = stored.put(m.getString("from") + "/" + m.getString("id"), m.getLong("seq"));
                assertThat(dup).as("message %s/%s stored once", m.getString("from"), m.getString("id")).isNull();
            }
            int acked = 0;
            int restartCloses = 0;
            for (ChatClient c : clients) {
                for (Map.Entry<String, Long> a : c.acked.entrySet()) {
                    acked++;
                    assertThat(stored.get(c.user + "/" + a.getKey())).as("acknowledged message %s/%s is stored with its seq", c.user, a.getKey())
                            .isEqualTo(a.getValue());
                }
                restartCloses += (int) c.closeCodes.stream().filter(code -> code == 1012).count();
                c.stop();
            }
            System.out.printf("chat rolling restart: %d members, %d senders, %d acknowledged messages all stored (%d in history), "
                    + "%d closes with 1012, close codes seen %s%n", CLIENTS, SENDERS, acked, history.size(), restartCloses,
                    clients.stream().flatMap(c -> c.closeCodes.stream()).distinct().toList());
            assertThat(acked).as("messages acknowledged during the restarts").isGreaterThan(100);
            assertThat(restartCloses).as("members told to reconnect with 1012 (service restart)").isGreaterThan(0);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
