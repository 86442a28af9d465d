package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The RPO=0 crash test (issue E.5): writers append unique values to several cells and record
 * every ACKNOWLEDGED value in a ledger file; the node is killed with SIGKILL mid-stream and its
 * work directory deleted; a node started again must hold every acknowledged value, in order.
 */
final class CrashLedger {
    static final String WORKER = """
            import { DurableObject } from "cloudflare:workers";
            export class Ledger extends DurableObject {
              constructor(ctx, env) {
                super(ctx, env);
                ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS log (seq INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT NOT NULL)");
              }
              async fetch(request) {
                const url = new URL(request.url);
                if (request.method === "POST") {
                  this.ctx.storage.sql.exec("INSERT INTO log (v) VALUES (?)", url.searchParams.get("v"));
                  return new Response("ok");
                }
                return new Response(this.ctx.storage.sql.exec("SELECT v FROM log ORDER BY seq").toArray().map(r => r.v).join("\\n"));
              }
            }
            export default {
              async fetch(request, env) {
                const name = new URL(request.url).pathname.slice(1);
                return env.LEDGER.getByName(name).fetch(request);
              }
            };
            """;

    record Result(int acked, int lost, List<String> details) {
    }

    /** Runs {@code cycles} kill/wipe/restart cycles; returns what was acknowledged and what was lost. */
    static Result run(Fleet fleet, int cycles, int cells, Map<String, String> nodeEnv, long seed) throws Exception {
        Random rnd = new Random(seed);
        Path ledger = fleet.root.resolve("ledger.txt");
        Map<String, List<String>> acked = new ConcurrentHashMap<>();
        for (int c = 0; c < cells; c++) {
            acked.put("cell" + c, new CopyOnWriteArrayList<>());
        }
        long counter = 0;
        for (int cycle = 0; cycle < cycles; cycle++) {
            NodeProcess node = fleet.start("crash", nodeEnv);
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            long base = counter;
            counter += 1_000_000;
            for (int c = 0; c < cells; c++) {
                String cell = "cell" + c;
                int cc = c;
                Thread t = new Thread(() -> {
                    long v = base + cc * 100_000L;
                    while (!stop.get()) {
                        String value = Long.toString(++v);
                        try {
                            HttpResponse<String> r = node.post(node.publicUrl("/" + cell + "?v=" + value), "");
                            if (r.statusCode() == 200 && r.body().equals("ok")) {
                                acked.get(cell).add(value);
                                Files.writeString(ledger, cell + " " + value + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                            }
                        } catch (Exception e) {
                            // not acknowledged: the node died under us
                        }
                    }
                });
                t.start();
                writers.add(t);
            }
            Thread.sleep(1500 + rnd.nextInt(2500));
            node.sigkill();
            node.waitForExit(Duration.ofSeconds(30));
            stop.set(true);
            for (Thread t : writers) {
                t.join();
            }
            fleet.nodes.remove(node);
            deleteRecursively(fleet.root.resolve("crash").resolve("watch"));
        }
        NodeProcess check = fleet.start("crash", nodeEnv);
        int total = 0;
        int lost = 0;
        List<String> details = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : acked.entrySet()) {
            HttpResponse<String> r = check.get(check.publicUrl("/" + e.getKey()));
            assertThat(r.statusCode()).isEqualTo(200);
            List<String> stored = r.body().isEmpty() ? List.of() : List.of(r.body().split("\n"));
            total += e.getValue().size();
            int pos = 0;
            for (String v : e.getValue()) {
                int at = stored.subList(pos, stored.size()).indexOf(v);
                if (at < 0) {
                    lost++;
                    if (details.size() < 20) {
                        details.add(e.getKey() + " lost acknowledged " + v + (stored.contains(v) ? " (out of order)" : ""));
                    }
                } else {
                    pos += at + 1;
                }
            }
        }
        check.close();
        fleet.nodes.remove(check);
        return new Result(total, lost, details);
    }

    static void deleteRecursively(Path p) throws java.io.IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (var s = Files.walk(p)) {
            for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }

    private CrashLedger() {
    }
}
