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
                if (name === "stateless") return new Response("stateless ok"); // touches no Durable Object
                return env.LEDGER.getByName(name).fetch(request);
              }
            };
            """;

    record Result(int acked, int lost, List<String> details) {
    }

    /**
     * Runs up to {@code cycles} kill/wipe/restart cycles, checking every acknowledged value after
     * each restart. With {@code stopAtFirstLoss} (the broken variant) it stops once a loss is seen.
     */
    static Result run(Fleet fleet, int cycles, int cells, Map<String, String> nodeEnv, long seed, boolean stopAtFirstLoss)
            throws Exception {
        Random rnd = new Random(seed);
        Path ledger = fleet.root.resolve("ledger.txt");
        Map<String, List<String>> acked = new ConcurrentHashMap<>();
        for (int c = 0; c < cells; c++) {
            acked.put("cell" + c, new CopyOnWriteArrayList<>());
        }
        NodeProcess node = fleet.start("crash", nodeEnv);
        Result last = new Result(0, 0, List.of());
        for (int cycle = 0; cycle < cycles; cycle++) {
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            long base = (cycle + 1) * 1_000_000L;
            java.util.concurrent.CountDownLatch warm = new java.util.concurrent.CountDownLatch(cells);
            NodeProcess target = node;
            for (int c = 0; c < cells; c++) {
                String cell = "cell" + c;
                int cc = c;
                Thread t = new Thread(() -> {
                    long v = base + cc * 100_000L;
                    boolean first = true;
                    while (!stop.get()) {
                        String value = Long.toString(++v);
                        try {
                            HttpResponse<String> r = target.post(target.publicUrl("/" + cell + "?v=" + value), "");
                            if (r.statusCode() == 200 && r.body().equals("ok")) {
                                acked.get(cell).add(value);
                                Files.writeString(ledger, cell + " " + value + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                                if (first) {
                                    warm.countDown();
                                    first = false;
                                }
                            }
                        } catch (Exception e) {
                            // not acknowledged: the node died under us
                        }
                    }
                });
                t.start();
                writers.add(t);
            }
            warm.await(120, java.util.concurrent.TimeUnit.SECONDS); // every cell active and writing
            Thread.sleep(1000 + rnd.nextInt(2000));
            node.sigkill();
            node.waitForExit(Duration.ofSeconds(30));
            stop.set(true);
            for (Thread t : writers) {
                t.join();
            }
            fleet.nodes.remove(node);
            deleteRecursively(fleet.root.resolve("crash").resolve("watch"));
            node = fleet.start("crash", nodeEnv);
            last = verify(node, acked);
            if (stopAtFirstLoss && last.lost() > 0) {
                break;
            }
        }
        node.close();
        fleet.nodes.remove(node);
        return last;
    }

    /** Every acknowledged value must be stored, in acknowledgement order per cell. */
    static Result verify(NodeProcess node, Map<String, List<String>> acked) throws Exception {
        int total = 0;
        int lost = 0;
        List<String> details = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : acked.entrySet()) {
            HttpResponse<String> r = node.get(node.publicUrl("/" + e.getKey()));
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
