package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.plugin.TestPluginBuilder;
import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue I: a 3-node fleet switches deployments under load without restarts or failed requests. */
class DeploySwitchIT {
    static String worker(String version) {
        return """
                import { DurableObject } from "cloudflare:workers";
                export class Box extends DurableObject {
                  async fetch() { return new Response("%s:" + ((await this.ctx.storage.get("n") ?? 0) + 1)); }
                }
                export default {
                  async fetch(request, env) {
                    if (new URL(request.url).pathname === "/cell") return env.BOX.getByName("x").fetch(request);
                    return new Response("%s");
                  }
                };
                """.formatted(version, version);
    }

    @TempDir
    Path dir;

    @Test
    void pushAndRollbackSwitchEveryNodeWithin3sWithoutFailures() throws Exception {
        try (Fleet f = Fleet.onFileBucket(dir, Map.of()); BucketStore b = f.openBucket()) {
            String v1 = TestDeployments.publish(b, "switch", Map.of("index.js", worker("v1")), "index.js", Map.of("BOX", "Box"), Map.of());
            for (String n : List.of("s1", "s2", "s3")) {
                f.start(n);
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger ok = new AtomicInteger();
            List<String> failures = new CopyOnWriteArrayList<>();
            List<Thread> load = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                NodeProcess via = f.nodes.get(t % 3);
                String path = t % 2 == 0 ? "/" : "/cell";
                Thread th = new Thread(() -> {
                    while (!stop.get()) {
                        java.time.Instant sent = java.time.Instant.now(); // to find the request in the nodes' logs
                        try {
                            HttpResponse<String> r = via.get(via.publicUrl(path));
                            if (r.statusCode() == 200) {
                                ok.incrementAndGet();
                            } else {
                                failures.add(via.name() + path + " sent " + sent + ": " + r.statusCode() + " " + r.body());
                            }
                        } catch (Exception e) {
                            failures.add(via.name() + path + " sent " + sent + ": " + e);
                        }
                    }
                });
                th.start();
                load.add(th);
            }
            // The cell's first activation (cold JavaScript on a loaded box) is not part of a switch.
            assertSwitches(f, "v1", System.nanoTime(), 120_000);
            Thread.sleep(1000);
            long pushed = System.nanoTime();
            String v2 = TestDeployments.publish(b, "switch", Map.of("index.js", worker("v2")), "index.js", Map.of("BOX", "Box"), Map.of());
            assertSwitches(f, "v2", pushed, 3000);
            long rolledBack = System.nanoTime();
            TestDeployments.rollback(b, v1);
            assertSwitches(f, "v1", rolledBack, 3000);
            stop.set(true);
            for (Thread th : load) {
                th.join();
            }
            assertThat(failures).as("failed requests during the switches").isEmpty();
            assertThat(ok.get()).isGreaterThan(50);
            assertThat(v2).isNotEqualTo(v1);
            for (NodeProcess n : f.nodes) {
                assertThat(n.events("node.listening")).as("no restart").hasSize(1);
            }
        }
    }

    /**
     * Every node answers {@code version} on both the Worker and the cell within {@code ms} of
     * {@code t0} (the push, on the {@link System#nanoTime} clock). All
     * six routes are probed at once, each until it answers the new version: probing them one
     * after another would add up the latencies of routes that had switched long before. The time
     * a route switched is when its first answer in {@code version} arrived, so a slow answer
     * counts in full.
     */
    static void assertSwitches(Fleet f, String version, long t0, long ms) throws Exception {
        long took = 0;
        StringBuilder seen = new StringBuilder();
        try (ExecutorService probing = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Switched>> probes = new ArrayList<>();
            for (NodeProcess n : f.nodes) {
                for (String path : List.of("/", "/cell")) {
                    probes.add(probing.submit(() -> probeUntil(n, path, version, t0, ms)));
                }
            }
            for (Future<Switched> p : probes) {
                Switched route = p.get();
                seen.append(" | ").append(route.trace());
                took = Math.max(took, route.atMs());
            }
        }
        System.out.printf("every node serves %s after %d ms (answers, at ms since the push / ms each took:%s)%n", version, took, seen);
        assertThat(took).as("time until every node served %s (a slow answer counts too):%s", version, seen).isLessThan(ms);
    }

    /** When a route first answered the new version (ms since the push), and its answers up to then. */
    private record Switched(long atMs, String trace) {
    }

    /**
     * Asks one route until it answers {@code version} (or {@code ms} have passed). The trace
     * reads {@code node/path: v1@120/40 v2@310/95} (answer@ms since the push/ms it took).
     */
    private static Switched probeUntil(NodeProcess n, String path, String version, long t0, long ms) throws Exception {
        StringBuilder trace = new StringBuilder(n.name() + path + ":");
        while (true) {
            long sent = System.nanoTime();
            String body = n.get(n.publicUrl(path)).body();
            long answered = System.nanoTime();
            trace.append(' ').append(body, 0, Math.min(2, body.length())).append('@').append((answered - t0) / 1_000_000)
                    .append('/').append((answered - sent) / 1_000_000);
            if (body.startsWith(version)) {
                return new Switched((answered - t0) / 1_000_000, trace.toString());
            }
            assertThat((answered - t0) / 1_000_000).as("%s still answers %s", trace, body).isLessThan(ms);
            Thread.sleep(50);
        }
    }

    @Test
    void aDeploymentCanCarryAPluginTheNodesHotLoad() throws Exception {
        Path jar = TestPluginBuilder.buildStorePlugin(dir.resolve("plugin"), "carried", System.getProperty("java.class.path"));
        try (Fleet f = Fleet.onFileBucket(dir.resolve("fleet"), Map.of()); BucketStore b = f.openBucket()) {
            TestDeployments.publish(b, "p", Map.of("index.js", worker("p1")), "index.js", Map.of("BOX", "Box"), Map.of());
            NodeProcess n = f.start("carrier");
            assertThat(new JsonObject(n.get(n.internalUrl("/plugins")).body()).getJsonArray("schemes").getList()).doesNotContain("carried");
            long pushed = System.nanoTime();
            TestDeployments.publish(b, "p", Map.of("index.js", worker("p2")), "index.js", Map.of("BOX", "Box"), Map.of(),
                    Map.of("carried-store.jar", Files.readAllBytes(jar)));
            assertSwitches(f, "p2", pushed, 5000);
            assertThat(new JsonObject(n.get(n.internalUrl("/plugins")).body()).getJsonArray("schemes").getList()).contains("carried");
            assertThat(n.events("deployment.plugin_loaded")).hasSize(1);
        }
    }
}
