package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.store.file.FileBucketStore;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One real node started the documented way (java -jar, JIT relaunch) serving a small Worker. */
class NodeBasicsIT {
    static final String WORKER = """
            export default {
              async fetch(request, env) {
                const url = new URL(request.url);
                if (url.pathname === "/hello") return new Response("hello");
                if (url.pathname === "/throw") throw new TypeError("boom from the worker");
                if (url.pathname === "/spin") { for (;;) { } }
                if (url.pathname === "/echo") { const t = await request.text(); return new Response(t, { headers: { "x-len": String(t.length) } }); }
                return Response.json({ path: url.pathname, greeting: env.GREETING });
              }
            };
            """;

    /** The deployment's limits.cpu_ms. */
    static final long WORKER_CPU_MS = 1000;

    @TempDir
    static Path dir;
    static NodeProcess node;

    @BeforeAll
    static void start() throws Exception {
        Path bucketDir = dir.resolve("bucket");
        try (BucketStore b = new FileBucketStore("file://" + bucketDir, bucketDir, false)) {
            // limits.cpu_ms well under the node's CELLD_CPU_MS: the Worker's own limit is the one that stops /spin
            TestDeployments.publish(b, "basics", Map.of("index.js", WORKER), "index.js", Map.of(), Map.of("GREETING", "hi"),
                    WORKER_CPU_MS);
        }
        node = NodeProcess.start("basics", dir.resolve("n1"), Map.of("CELLD_BUCKET", "file://" + bucketDir,
                "CELLD_MAX_REQUEST_BODY_BYTES", "1000", "CELLD_VAR_GREETING", "overridden", "CELLD_CPU_MS", "120000"));
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void healthAndTheWorkerAnswerOnThePublicListener() throws Exception {
        HttpResponse<String> h = node.get(node.publicUrl("/__celld/health"));
        assertThat(h.statusCode()).isEqualTo(200);
        assertThat(new JsonObject(h.body()).getBoolean("ok")).isTrue();
        assertThat(node.get(node.publicUrl("/hello")).body()).isEqualTo("hello");
        assertThat(new JsonObject(node.get(node.publicUrl("/a/b")).body()).getString("greeting"))
                .as("CELLD_VAR_ overrides vars").isEqualTo("overridden");
    }

    @Test
    void internalListenerServesStateAndNeverTheWorker() throws Exception {
        JsonObject state = node.state();
        assertThat(state.getString("node")).isEqualTo("basics");
        assertThat(state.getJsonObject("engine").getString("mode")).as("JIT when started with java -jar").isEqualTo("jit");
        for (String k : List.of("occupied", "releasing", "activating", "evicting", "draining", "resident", "deployment")) {
            assertThat(state.containsKey(k)).as(k).isTrue();
        }
        HttpResponse<String> nf = node.get(node.internalUrl("/hello"));
        assertThat(nf.statusCode()).isEqualTo(404);
        assertThat(new JsonObject(nf.body()).getString("error")).isEqualTo("not found");
    }

    @Test
    void oversizedBodiesGet413AndJsExceptionsGet500WhileTheNodeKeepsServing() throws Exception {
        HttpResponse<String> small = node.post(node.publicUrl("/echo"), "x".repeat(999));
        assertThat(small.statusCode()).isEqualTo(200);
        assertThat(small.body()).hasSize(999);
        assertThat(node.post(node.publicUrl("/echo"), "x".repeat(1001)).statusCode()).isEqualTo(413);
        HttpResponse<String> chunked = NodeProcess.HTTP.send(HttpRequest.newBuilder(URI.create(node.publicUrl("/echo")))
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(new byte[5000]))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(chunked.statusCode()).as("a chunked body over the limit").isEqualTo(413);
        HttpResponse<String> boom = node.get(node.publicUrl("/throw"));
        assertThat(boom.statusCode()).isEqualTo(500);
        // the log line may reach the test's reader just after the response (it did once right after the /spin case)
        node.awaitLine(l -> l.contains("worker.exception") && l.contains("boom from the worker"), Duration.ofSeconds(5));
        assertThat(node.get(node.publicUrl("/hello")).statusCode()).isEqualTo(200);
    }

    @Test
    void theDeploymentsOwnCpuLimitStopsARunawayEventNotTheNodesMuchLargerDefault() throws Exception {
        long t0 = System.nanoTime();
        // 20 s: far above the Worker's 1 s budget, far below the node's 120 s
        HttpResponse<String> spun = NodeProcess.HTTP.send(HttpRequest.newBuilder(URI.create(node.publicUrl("/spin")))
                .timeout(java.time.Duration.ofSeconds(20)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(spun.statusCode()).isEqualTo(500);
        assertThat(java.time.Duration.ofNanos(System.nanoTime() - t0)).isLessThan(java.time.Duration.ofSeconds(20));
        node.awaitLine(l -> l.contains("js.event.stopped") && l.contains("exceeded its CPU budget of " + WORKER_CPU_MS
                + " ms (limits.cpu_ms)"), java.time.Duration.ofSeconds(5));
        assertThat(node.get(node.publicUrl("/hello")).body()).as("the node and the Worker keep serving").isEqualTo("hello");
    }

    @Test
    void invalidSettingsStopWithExitCode2NamingTheVariable() throws Exception {
        for (Map.Entry<String, String> bad : Map.of("CELLD_RELEASES", "0", "CELLD_TTL_MS", "12x", "CELLD_OUTPUT_GATE", "2",
                "CELLD_TYPO", "1").entrySet()) {
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-jar", NodeProcess.GATEWAY_JAR.toString()).redirectErrorStream(true);
            pb.environment().keySet().removeIf(k -> k.startsWith("CELLD_"));
            pb.environment().put(bad.getKey(), bad.getValue());
            Process p = pb.start();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            p.getInputStream().transferTo(out);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            String text = out.toString(StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as(text).isEqualTo(2);
            assertThat(text.strip().lines().count()).as("one line: %s", text).isEqualTo(1);
            assertThat(text).contains(bad.getKey()).contains(bad.getValue());
        }
    }

    @Test
    void anIdleNodeExitsWithin1sOfSigtermWithCode0() throws Exception {
        Path bucketDir = dir.resolve("bucket");
        try (NodeProcess idle = NodeProcess.start("idle", dir.resolve("idle"), Map.of("CELLD_BUCKET", "file://" + bucketDir))) {
            long t0 = System.nanoTime();
            idle.sigterm();
            int code = idle.waitForExit(Duration.ofSeconds(10));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(code).isZero();
            assertThat(ms).as("ms from SIGTERM to exit").isLessThan(1000);
            assertThat(idle.events("shutdown.requested")).singleElement()
                    .satisfies(e -> assertThat(e.getString("signal")).isEqualTo("SIGTERM"));
            assertThat(idle.events("shutdown.drained")).hasSize(1);
            assertThat(idle.events("node.stopped")).singleElement().satisfies(e -> assertThat(e.getInteger("exit_code")).isZero());
        }
    }
}
