package dev.cellgate.gateway.it;

import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * While a fault lasts, asks every node once per period for a request that touches no Durable Object
 * ({@link CrashLedger}'s {@code /stateless}) and for {@code /__celld/health}, and keeps what it saw:
 * how many were answered, every request that was not answered 200, the slowest answer, and the
 * first time each node's health said {@code degraded}.
 */
final class StatelessProbe implements AutoCloseable {
    private final List<NodeProcess> nodes;
    private final long periodMs;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong healthAnswered = new AtomicLong();
    private final AtomicLong slowestMs = new AtomicLong();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final Map<String, Long> firstDegradedMs = new ConcurrentHashMap<>();

    StatelessProbe(List<NodeProcess> nodes, long periodMs) {
        this.nodes = List.copyOf(nodes);
        this.periodMs = periodMs;
    }

    StatelessProbe start() {
        for (NodeProcess n : nodes) {
            threads.add(Thread.ofPlatform().name("stateless-" + n.name()).start(() -> probe(n)));
        }
        return this;
    }

    private void probe(NodeProcess n) {
        while (!stop.get()) {
            long t0 = System.nanoTime();
            try {
                HttpResponse<String> r = n.get(n.publicUrl("/stateless"));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                slowestMs.accumulateAndGet(ms, Math::max);
                if (r.statusCode() == 200 && r.body().equals("stateless ok")) {
                    answered.incrementAndGet();
                } else {
                    failures.add(n.name() + " /stateless: " + r.statusCode() + " " + r.body());
                }
                HttpResponse<String> h = n.get(n.publicUrl("/__celld/health"));
                if (h.statusCode() == 200) {
                    healthAnswered.incrementAndGet();
                    if (new JsonObject(h.body()).containsKey("degraded")) {
                        firstDegradedMs.putIfAbsent(n.name(), System.currentTimeMillis());
                    }
                } else {
                    failures.add(n.name() + " health: " + h.statusCode() + " " + h.body());
                }
            } catch (Exception e) {
                failures.add(n.name() + ": " + e.getClass().getSimpleName() + " " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            }
            try {
                Thread.sleep(periodMs);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    long answered() {
        return answered.get();
    }

    long healthAnswered() {
        return healthAnswered.get();
    }

    long slowestMs() {
        return slowestMs.get();
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    /** When each node's health first said degraded (wall ms), by node. */
    Map<String, Long> firstDegradedMs() {
        return new TreeMap<>(firstDegradedMs);
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) {
            t.join(120_000);
        }
    }
}
