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
    static final String WORKER = """
            import { DurableObject } from "cloudflare:workers";
            export class Counter extends DurableObject {
              constructor(ctx, env) {
                super(ctx, env);
                ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS c (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
              }
              async fetch(request) {
                if (new URL(request.url).searchParams.get("op") === "get") {
                  const r = this.ctx.storage.sql.exec("SELECT v FROM c WHERE id = 1").toArray();
                  return new Response(String(r.length ? r[0].v : 0));
                }
                return new Response(String(this.ctx.storage.sql.exec(
                  "INSERT INTO c (id, v) VALUES (1, 1) ON CONFLICT(id) DO UPDATE SET v = v + 1 RETURNING v").one().v));
              }
            }
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
