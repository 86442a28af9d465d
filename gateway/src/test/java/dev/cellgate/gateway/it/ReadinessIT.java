package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.gateway.faults.FaultPlan;
import dev.cellgate.gateway.faults.FaultPlan.Action;
import dev.cellgate.gateway.faults.FaultProxy;
import dev.cellgate.gateway.faults.OwnershipWitness;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Health is a promise to a load balancer: 200 means a request sent now is served by the Worker
 * (issue 22). A node is watched from the first moment its public port answers, health and a Worker
 * request in a tight loop: once health has said 200, no request may get "no Worker is deployed".
 */
class ReadinessIT {
    static final String WORKER = """
            export default {
              async fetch(request) {
                return new Response("hello");
              }
            };
            """;
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofMillis(500)).build();

    @TempDir
    Path dir;

    @Test
    void onAFileBucketHealthSays200OnlyOnceRequestsAreServed() throws Exception {
        try (Fleet f = Fleet.onFileBucket(dir, Map.of())) {
            publish(f);
            watchTheStart(f, "ready-file", true, n -> { });
        }
    }

    @Test
    void onS3HealthSays200OnlyOnceRequestsAreServed() throws Exception {
        S3Env s3 = S3Env.require();
        try (Fleet f = Fleet.onBucket(dir, s3.freshUrl("readiness"), Map.of())) {
            publish(f);
            watchTheStart(f, "ready-s3", true, n -> { });
        }
    }

    /**
     * The first read of the deployment fails (every attempt of the manifest's GET answered 500): the
     * node must stay not ready until a later poll has loaded it, not call itself ready with nothing
     * installed.
     */
    @Test
    void aFirstDeploymentReadThatFailsKeepsTheNodeNotReadyUntilALaterPollLoadsIt() throws Exception {
        S3Env s3 = S3Env.require();
        java.util.concurrent.atomic.AtomicBoolean failing = new java.util.concurrent.atomic.AtomicBoolean(true);
        try (FaultProxy proxy = FaultProxy.start("readiness", s3.endpoint(), new FaultPlan(1), new OwnershipWitness(),
                Path.of("target", "it-logs", "faults-readiness.log"));
             Fleet f = Fleet.onBucket(dir, s3.freshUrl("readiness-fault"), Map.of("S3_ENDPOINT", proxy.endpoint()))) {
            proxy.plan().add("the manifest cannot be read until the node logged a failed load",
                    c -> failing.get() && c.method().equals("GET") && c.key().endsWith("/manifest.json"), 1.0, Action.SERVER_ERROR_500);
            publish(f);
            NodeProcess n = watchTheStart(f, "ready-fault", false, node -> {
                if (failing.get() && !node.events("deployment.load_failed").isEmpty()) {
                    failing.set(false);
                }
            });
            assertThat(n.events("deployment.load_failed")).as("the first load failed, as planned").isNotEmpty();
        }
    }

    /**
     * A bucket with no deployment: the node serves nothing, so it is not ready (503, saying why), and
     * becomes ready by itself once a deployment is pushed to the bucket (deploy-tool writes the bucket,
     * never a node, so a fleet that is not ready can still be deployed to).
     */
    @Test
    void aNodeWithNothingDeployedIsNotReadyUntilAPushLands() throws Exception {
        try (Fleet f = Fleet.onFileBucket(dir, Map.of())) {
            int port = NodeProcess.freePort();
            NodeProcess n = f.launch("ready-empty", Map.of("CELLD_ADDR", "127.0.0.1:" + port));
            n.awaitLine(l -> l.contains("\"event\":\"node.listening\""), Duration.ofSeconds(300));
            String base = "http://127.0.0.1:" + port;
            Thread.sleep(2 * 500 + 200); // a few deployment polls: nothing to find
            HttpResponse<String> h = get(base + "/__celld/health");
            assertThat(h.statusCode()).as("health with nothing deployed: " + h.body()).isEqualTo(503);
            assertThat(new JsonObject(h.body()).getString("deployment")).isEqualTo("none");
            HttpResponse<String> none = get(base + "/hello");
            assertThat(none.statusCode()).isEqualTo(503);
            assertThat(none.body()).startsWith("no Worker is deployed");

            publish(f);
            long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (get(base + "/__celld/health").statusCode() != 200) {
                assertThat(System.nanoTime()).as("healthy within 60 s of the push").isLessThan(end);
                Thread.sleep(50);
            }
            HttpResponse<String> r = get(base + "/hello");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("hello");
        }
    }

    private static void publish(Fleet f) {
        try (BucketStore b = f.openBucket()) {
            TestDeployments.publish(b, "readiness", Map.of("index.js", WORKER), "index.js", Map.of(), Map.of());
        }
    }

    /**
     * Starts a node and polls, from the first moment its port answers: health, then a request, again
     * and again, until 30 requests have followed the first 200 from health. Every one of those must
     * be served.
     */
    private static NodeProcess watchTheStart(Fleet f, String name, boolean expectLoading, java.util.function.Consumer<NodeProcess> eachRound)
            throws Exception {
        int port = NodeProcess.freePort();
        NodeProcess n = f.launch(name, Map.of("CELLD_ADDR", "127.0.0.1:" + port));
        String base = "http://127.0.0.1:" + port;
        List<String> trace = new ArrayList<>();
        List<String> unserved = new ArrayList<>();
        int servedAfterReady = 0;
        int loadingAnswers = 0;
        boolean ready = false;
        long end = System.nanoTime() + Duration.ofSeconds(300).toNanos();
        while (servedAfterReady + unserved.size() < 30) {
            assertThat(System.nanoTime()).as("node ready and 30 requests answered within 300 s; trace " + trace).isLessThan(end);
            assertThat(n.alive()).as("node running").isTrue();
            eachRound.accept(n);
            HttpResponse<String> h;
            try {
                h = get(base + "/__celld/health");
            } catch (java.io.IOException e) {
                Thread.sleep(5); // not listening yet
                continue;
            }
            boolean healthy = h.statusCode() == 200;
            HttpResponse<String> r = get(base + "/hello");
            trace.add(h.statusCode() + "/" + r.statusCode());
            ready |= healthy;
            if (!ready && h.statusCode() == 503 && h.body().contains("\"loading\"") && r.statusCode() != 200) {
                // Issue 26 item 5: while the node loads, a Worker request says so, not "no Worker is deployed".
                // Health and the request are two moments: between them a first load may have failed (the fault
                // test), and the request then says so instead; never "no Worker is deployed" while one is named.
                assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
                assertThat(r.body()).as("a request while the node loads")
                        .satisfiesAnyOf(b -> assertThat(b).startsWith("loading:"), b -> assertThat(b).startsWith("no Worker is running here: "));
                if (r.body().startsWith("loading:")) {
                    loadingAnswers++;
                }
            }
            if (ready) {
                if (r.statusCode() == 200 && r.body().equals("hello")) {
                    servedAfterReady++;
                } else {
                    unserved.add(r.statusCode() + " " + r.body() + " (health just said " + h.statusCode() + " " + h.body() + ")");
                }
            }
        }
        assertThat(unserved).as("requests after health first said 200 (health/request statuses from the first answer: "
                + compress(trace) + ")").isEmpty();
        if (expectLoading) {
            assertThat(loadingAnswers).as("requests answered 'loading' before ready (trace " + compress(trace) + ")").isPositive();
        }
        System.out.println(name + ": health/request statuses from the first answer: " + compress(trace));
        return n;
    }

    /** {@code 503/503 x12, 200/200 x30}: the trace, runs collapsed. */
    private static String compress(List<String> trace) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < trace.size(); ) {
            int j = i;
            while (j < trace.size() && trace.get(j).equals(trace.get(i))) {
                j++;
            }
            out.append(out.isEmpty() ? "" : ", ").append(trace.get(i)).append(" x").append(j - i);
            i = j;
        }
        return out.toString();
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
