package dev.cellgate.gateway.it;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.gateway.faults.FaultPlan;
import dev.cellgate.gateway.faults.FaultProxy;
import dev.cellgate.gateway.faults.OwnershipWitness;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * One real node on the S3 server behind a {@link FaultProxy}, running a counter whose Worker
 * catches a failed stub call and answers 503 with the error's message and {@code retryable} flag
 * as JSON: what a Worker that handles Durable Object errors sees.
 */
final class ProxiedCounter implements AutoCloseable {
    /** Fleet's counter class, and a Worker that catches what its stub call throws. */
    static final String WORKER = Fleet.COUNTER_WORKER.substring(0, Fleet.COUNTER_WORKER.indexOf("export default")) + """
            export default {
              async fetch(request, env) {
                const name = new URL(request.url).pathname.slice(1) || "counter";
                try {
                  return await env.COUNTER.getByName(name).fetch(request);
                } catch (e) {
                  return Response.json({ error: String(e && e.message), retryable: e && e.retryable === true }, { status: 503 });
                }
              }
            };
            """;

    final S3Env s3;
    final Fleet fleet;
    final FaultProxy proxy;

    ProxiedCounter(Path root, String scenario) throws Exception {
        s3 = S3Env.require();
        fleet = Fleet.onBucket(root, s3.freshUrl(scenario), Map.of());
        proxy = FaultProxy.start(scenario, s3.endpoint(), new FaultPlan(1), new OwnershipWitness(),
                Path.of("target", "it-logs", "faults-" + scenario + ".log"));
        try (BucketStore b = direct()) {
            TestDeployments.publish(b, scenario, Map.of("index.js", WORKER), "index.js", Map.of("COUNTER", "Counter"), Map.of());
        }
    }

    /** The bucket as the test sees it, not through the proxy. */
    BucketStore direct() {
        return Fleet.openBucket(fleet.bucketUrl, Map.of("S3_ENDPOINT", s3.endpoint().toString(), "AWS_REGION", s3.region()));
    }

    NodeProcess start(String name, Map<String, String> env) throws Exception {
        Map<String, String> e = new HashMap<>(env);
        e.put("S3_ENDPOINT", proxy.endpoint());
        return fleet.start(name, e);
    }

    /** The failure a Worker caught: {@code {error, retryable}}, or null for a success. */
    static JsonObject caught(HttpResponse<String> r) {
        return r.statusCode() == 503 && r.body().startsWith("{") ? new JsonObject(r.body()) : null;
    }

    @Override
    public void close() {
        fleet.close();
        proxy.close();
    }
}
