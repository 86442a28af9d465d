package dev.cellgate.gateway.it;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * Closed-loop writers for {@link CrashLedger}'s Worker: writer i appends unique values to its own
 * cell, one request at a time, through the node {@code route} picks for each request. Only values
 * answered 200 "ok" count as acknowledged; everything else (an error status, a reset, a timeout)
 * is an outcome the client cannot trust either way and is only counted. {@link CrashLedger#verify}
 * then demands every acknowledged value, in order.
 */
final class LedgerLoad implements AutoCloseable {
    /** What a writer sends to: a node, or null to wait (e.g. every candidate is stopped). */
    interface Route {
        NodeProcess pick(int writer, long attempt);
    }

    final Map<String, List<String>> acked = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> outcomes = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> ackedByNode = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong lastAckMs = new AtomicLong();
    private final String tag;
    private final IntFunction<String> cellOf;

    LedgerLoad(String tag, IntFunction<String> cellOf) {
        this.tag = tag;
        this.cellOf = cellOf;
    }

    LedgerLoad start(int writers, Route route) {
        for (int w = 0; w < writers; w++) {
            String cell = cellOf.apply(w);
            acked.putIfAbsent(cell, new CopyOnWriteArrayList<>());
            int writer = w;
            threads.add(Thread.ofPlatform().name("ledger-" + tag + "-" + w).start(() -> write(writer, cell, route)));
        }
        return this;
    }

    private void write(int writer, String cell, Route route) {
        long seq = 0;
        while (!stop.get()) {
            NodeProcess n = route.pick(writer, seq);
            if (n == null || !n.alive()) {
                sleep(50);
                continue;
            }
            String value = tag + "-" + writer + "-" + (++seq);
            try {
                HttpResponse<String> r = n.post(n.publicUrl("/" + cell + "?v=" + value), "");
                if (r.statusCode() == 200 && r.body().equals("ok")) {
                    acked.get(cell).add(value);
                    ackedByNode.computeIfAbsent(n.name(), k -> new AtomicLong()).incrementAndGet();
                    lastAckMs.set(System.currentTimeMillis());
                    count("acked");
                } else {
                    count("status_" + r.statusCode());
                }
            } catch (IOException e) {
                count("io_error");
                sleep(20);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void count(String outcome) {
        outcomes.computeIfAbsent(outcome, k -> new AtomicLong()).incrementAndGet();
    }

    long ackedTotal() {
        return acked.values().stream().mapToLong(List::size).sum();
    }

    /** Acknowledged values per cell right now (to see that every writer makes progress). */
    Map<String, Integer> ackedPerCell() {
        Map<String, Integer> out = new TreeMap<>();
        acked.forEach((c, l) -> out.put(c, l.size()));
        return out;
    }

    long lastAckMs() {
        return lastAckMs.get();
    }

    /** Every outcome the writers saw, counted ("acked", "status_503", "io_error", ...). */
    Map<String, Long> outcomes() {
        Map<String, Long> out = new TreeMap<>();
        outcomes.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    Map<String, Long> ackedByNode() {
        Map<String, Long> out = new TreeMap<>();
        ackedByNode.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    /** Stops the writers and waits for their last requests. */
    void stop() throws InterruptedException {
        stop.set(true);
        for (Thread t : threads) {
            t.join(120_000);
        }
    }

    /**
     * Stored vs acknowledged through {@code via}: every acknowledged value present, in order. Each
     * cell is first read until it answers (a takeover or a restore may still be under way).
     */
    CrashLedger.Result verify(NodeProcess via) throws Exception {
        for (String cell : acked.keySet()) {
            long end = System.currentTimeMillis() + 300_000;
            int status = 0;
            while (System.currentTimeMillis() < end) {
                try {
                    status = via.get(via.publicUrl("/" + cell)).statusCode();
                } catch (IOException e) {
                    status = -1;
                }
                if (status == 200) {
                    break;
                }
                sleep(500);
            }
            if (status != 200) {
                throw new AssertionError("cell " + cell + " not readable through " + via.name() + " within 300 s (last status " + status + ")");
            }
        }
        return CrashLedger.verify(via, acked);
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
