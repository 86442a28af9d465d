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
            assertSwitches(f, "v1", 120_000);
            Thread.sleep(1000);
            String v2 = TestDeployments.publish(b, "switch", Map.of("index.js", worker("v2")), "index.js", Map.of("BOX", "Box"), Map.of());
            assertSwitches(f, "v2", 3000);
            TestDeployments.rollback(b, v1);
            assertSwitches(f, "v1", 3000);
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

    /** Every node answers {@code version} on both the Worker and the cell within {@code ms}. */
    static void assertSwitches(Fleet f, String version, long ms) throws Exception {
        long t0 = System.nanoTime();
        StringBuilder seen = new StringBuilder();
        for (NodeProcess n : f.nodes) {
            for (String path : List.of("/", "/cell")) {
                seen.append(' ').append(n.name()).append(path).append('@').append((System.nanoTime() - t0) / 1_000_000);
                while (true) {
                    String body = n.get(n.publicUrl(path)).body();
                    if (body.startsWith(version)) {
                        break;
                    }
                    long waited = (System.nanoTime() - t0) / 1_000_000;
                    assertThat(waited).as("%s%s still answers %s", n.name(), path, body).isLessThan(ms);
                    Thread.sleep(50);
                }
            }
        }
        long took = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("every node serves %s after %d ms (probes started:%s)%n", version, took, seen);
        assertThat(took).as("time until every node served %s (a slow answer counts too)", version).isLessThan(ms);
    }

    @Test
    void aDeploymentCanCarryAPluginTheNodesHotLoad() throws Exception {
        Path jar = TestPluginBuilder.buildStorePlugin(dir.resolve("plugin"), "carried", System.getProperty("java.class.path"));
        try (Fleet f = Fleet.onFileBucket(dir.resolve("fleet"), Map.of()); BucketStore b = f.openBucket()) {
            TestDeployments.publish(b, "p", Map.of("index.js", worker("p1")), "index.js", Map.of("BOX", "Box"), Map.of());
            NodeProcess n = f.start("carrier");
            assertThat(new JsonObject(n.get(n.internalUrl("/plugins")).body()).getJsonArray("schemes").getList()).doesNotContain("carried");
            TestDeployments.publish(b, "p", Map.of("index.js", worker("p2")), "index.js", Map.of("BOX", "Box"), Map.of(),
                    Map.of("carried-store.jar", Files.readAllBytes(jar)));
            assertSwitches(f, "p2", 5000);
            assertThat(new JsonObject(n.get(n.internalUrl("/plugins")).body()).getJsonArray("schemes").getList()).contains("carried");
            assertThat(n.events("deployment.plugin_loaded")).hasSize(1);
        }
    }
}
