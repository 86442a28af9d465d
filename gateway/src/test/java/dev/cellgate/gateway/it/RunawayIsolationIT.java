package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.store.file.FileBucketStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29 item 1 on a real node: a handler spinning in {@code while(true){}} holds only its own
 * Durable Object (or its own stateless instance) until its CPU budget stops it. Requests to other
 * objects and stateless requests keep their latency meanwhile. Each probe uses a new connection,
 * so the probes land on every event loop of the node, the spinner's included.
 */
class RunawayIsolationIT {
    static final String WORKER = """
            import { DurableObject } from "cloudflare:workers";
            export class Box extends DurableObject {
              async fetch(request) {
                if (new URL(request.url).pathname.endsWith("/spin")) { while (true) {} }
                const n = ((await this.ctx.storage.get("n")) ?? 0) + 1;
                await this.ctx.storage.put("n", n);
                return new Response(String(n));
              }
            }
            export default {
              async fetch(request, env) {
                const url = new URL(request.url);
                if (url.pathname === "/spin") { while (true) {} }
                if (url.pathname === "/hello") return new Response("hello");
                const m = url.pathname.match(/^\\/do\\/([^/]+)/);
                if (m) return env.BOX.get(env.BOX.idFromName(m[1])).fetch(request);
                return new Response("no route", { status: 404 });
              }
            };
            """;
    /** The CPU budget of the runaway: long enough that a stalled probe cannot be mistaken for a slow one. */
    static final int CPU_MS = 8_000;
    /** What a probe beside the runaway may take on this 2-core box (the spinner holds one core). */
    static final long PROBE_BOUND_MS = 1_500;

    @TempDir
    static Path dir;
    static NodeProcess node;

    @BeforeAll
    static void start() throws Exception {
        Path bucketDir = dir.resolve("bucket");
        try (BucketStore b = new FileBucketStore("file://" + bucketDir, bucketDir, false)) {
            TestDeployments.publish(b, "runaway", Map.of("index.js", WORKER), "index.js", Map.of("BOX", "Box"), Map.of());
        }
        node = NodeProcess.start("runaway", dir.resolve("n1"), Map.of("CELLD_BUCKET", "file://" + bucketDir,
                "CELLD_CPU_MS", String.valueOf(CPU_MS)));
        for (int i = 0; i < 8; i++) { // warm the JIT and every instance the probes will meet
            probe("/hello");
            probe("/do/warm" + i + "/n");
        }
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void aSpinningStatelessRequestStallsNoOtherRequest() throws Exception {
        besideARunaway("/spin");
    }

    @Test
    void aSpinningDurableObjectStallsNoOtherObjectNorStatelessRequests() throws Exception {
        besideARunaway("/do/spinner/spin");
    }

    private static void besideARunaway(String runawayPath) throws Exception {
        HttpClient runawayClient = HttpClient.newHttpClient();
        long t0 = System.nanoTime();
        CompletableFuture<HttpResponse<String>> runaway = runawayClient.sendAsync(
                HttpRequest.newBuilder(URI.create(node.publicUrl(runawayPath))).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
        Thread.sleep(500); // the runaway is spinning by now
        List<String> slow = new ArrayList<>();
        long worst = 0;
        int probes = 0;
        while (System.nanoTime() - t0 < (CPU_MS - 2_000) * 1_000_000L) {
            String path = probes % 2 == 0 ? "/hello" : "/do/other" + probes + "/n";
            long took = probe(path);
            worst = Math.max(worst, took);
            if (took > PROBE_BOUND_MS) {
                slow.add(path + " took " + took + " ms");
            }
            probes++;
        }
        boolean stillSpinning = !runaway.isDone();
        HttpResponse<String> stopped = runaway.get();
        long spunMs = (System.nanoTime() - t0) / 1_000_000;
        assertThat(slow).as(probes + " probes beside " + runawayPath + ", worst " + worst + " ms\n" + tail()).isEmpty();
        assertThat(stillSpinning).as("the runaway still spun while the probes ran").isTrue();
        assertThat(probes).as("probes made").isGreaterThanOrEqualTo(10);
        assertThat(stopped.statusCode()).as("the runaway is stopped by its CPU budget: " + stopped.body()).isGreaterThanOrEqualTo(500);
        assertThat(spunMs).as("stopped at its budget, not before").isGreaterThanOrEqualTo(CPU_MS - 1_000);
    }

    /** One request on a connection of its own; returns its latency in ms and checks its answer. */
    private static long probe(String path) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        long s = System.nanoTime();
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(node.publicUrl(path))).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
        long took = (System.nanoTime() - s) / 1_000_000;
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        client.close();
        return took;
    }

    private static String tail() {
        List<String> lines = node.lines();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    }
}
