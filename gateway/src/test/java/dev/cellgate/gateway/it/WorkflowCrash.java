package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.bindings.WorkflowCells;
import dev.cellgate.core.bindings.WorkflowProvider;
import dev.cellgate.core.deploy.bindings.WorkflowBinding;
import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The scenario of {@link WorkflowFleetIT} and {@link WorkflowBrokenMemoScenario}: a Workflow
 * instance on a fleet of two real node processes on the S3-compatible server; the node that owns the instance's cell is SIGKILLed in the middle of a step; the survivor takes the cell
 * over, its alarm wakes the instance, run() replays from the top and the instance completes where
 * it was: the steps that had completed before the kill are NOT run again (each step counts its side
 * effect in a Durable Object, so a re-run shows as a count of 2), the step in flight and the rest
 * run once. The broken variant ({@link WorkflowProvider#BROKEN_MEMO_PROPERTY}: step results kept in
 * memory until the run suspends) re-runs the completed steps, and the same scenario catches it.
 */
final class WorkflowCrash {
    static final long TTL_MS = 6000;
    static final String WORKFLOW = "orders";
    static final String WORKER = """
            import { DurableObject, WorkflowEntrypoint } from 'cloudflare:workers';

            // Side effects, counted per step where they cannot be lost: a Durable Object's storage.
            export class Counter extends DurableObject {
              async hit(name) { const n = ((await this.ctx.storage.get(name)) || 0) + 1; await this.ctx.storage.put(name, n); return n; }
              async counts() { return Object.fromEntries(await this.ctx.storage.list()); }
            }

            export class OrderFlow extends WorkflowEntrypoint {
              async run(event, step) {
                const hit = (name) => this.env.COUNTER.get(this.env.COUNTER.idFromName('c')).hit(name);
                const a = await step.do('reserve', async () => { await hit('reserve'); return 1; });
                const b = await step.do('charge', async () => { await hit('charge'); return a + 1; });
                // The node is killed while this step waits: it has had no side effect yet.
                const c = await step.do('pack', async () => { await new Promise((r) => setTimeout(r, 4000)); await hit('pack'); return b + 1; });
                await step.sleep('cool down', '2 seconds');
                const d = await step.do('ship', async () => { await hit('ship'); return c + 1; });
                return { a, b, c, d, payload: event.payload };
              }
            }

            export default {
              async fetch(request, env) {
                const url = new URL(request.url);
                const id = url.searchParams.get('id');
                if (url.pathname === '/create') return Response.json({ id: (await env.FLOW.create({ id, params: { order: id } })).id });
                if (url.pathname === '/status') return Response.json(await (await env.FLOW.get(id)).status());
                if (url.pathname === '/counts') return Response.json(await env.COUNTER.get(env.COUNTER.idFromName('c')).counts());
                return new Response('not found', { status: 404 });
              },
            };
            """;

    private WorkflowCrash() {
    }

    /**
     * Two nodes (with {@code jvmSwitches}) on a fresh prefix of the S3 server under {@code dir}; an
     * instance runs, its owner is SIGKILLed during the third step, the instance must complete on the
     * survivor. Returns how often each step's side effect happened.
     */
    static JsonObject killTheOwnerMidStep(Path dir, List<String> jvmSwitches) throws Exception {
        List<String> jvmArgs = new java.util.ArrayList<>(List.of("-Xmx1g"));
        jvmArgs.addAll(jvmSwitches);
        long started = System.nanoTime();
        try (Fleet f = Fleet.onBucket(dir, S3Env.require().freshUrl("workflow-fleet"), Map.of("CELLD_TTL_MS", String.valueOf(TTL_MS)))) {
            try (BucketStore b = f.openBucket()) {
                TestDeployments.publish(b, "shop", Map.of("index.js", WORKER), "index.js", Map.of("COUNTER", "Counter"),
                        List.of(new WorkflowBinding("FLOW", WORKFLOW, "OrderFlow")));
                NodeProcess n1 = f.start("n1", Map.of(), jvmArgs);
                NodeProcess n2 = f.start("n2", Map.of(), jvmArgs);
                System.out.printf("workflow IT: nodes up after %,d ms%n", Duration.ofNanos(System.nanoTime() - started).toMillis());
                String id = "order-1";
                HttpResponse<String> created = n1.get(n1.publicUrl("/create?id=" + id));
                assertThat(created.statusCode()).as(created.body()).isEqualTo(200);

                // Wait until the two first steps are done and the third one is under way.
                JsonObject seen = new JsonObject();
                long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (seen.getInteger("charge", 0) < 1 && System.nanoTime() < end) {
                    Thread.sleep(100);
                    HttpResponse<String> r = n1.get(n1.publicUrl("/counts"));
                    if (r.statusCode() == 200) {
                        seen = new JsonObject(r.body());
                    }
                }
                assertThat(seen.getInteger("charge", 0)).as("the second step ran before the kill: " + seen).isEqualTo(1);
                String owner = ownerOf(b, id);
                assertThat(owner).as("the instance's cell has an owner").isIn("n1", "n2");
                NodeProcess killed = owner.equals("n1") ? n1 : n2;
                NodeProcess survivor = killed == n1 ? n2 : n1;
                System.out.printf("workflow IT: killing %s %,d ms after the start%n", owner, Duration.ofNanos(System.nanoTime() - started).toMillis());
                killed.sigkill();
                long killedAt = System.nanoTime();

                JsonObject status = new JsonObject();
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (!"complete".equals(status.getString("status")) && !"errored".equals(status.getString("status"))
                        && System.nanoTime() < deadline) {
                    HttpResponse<String> r = survivor.get(survivor.publicUrl("/status?id=" + id));
                    if (r.statusCode() == 200) {
                        status = new JsonObject(r.body());
                    }
                    Thread.sleep(250);
                }
                System.out.printf("workflow completed %,d ms after the SIGKILL of its owner %s%n",
                        Duration.ofNanos(System.nanoTime() - killedAt).toMillis(), killed.name());
                assertThat(status.getString("status")).as("the instance completes on the survivor: " + status).isEqualTo("complete");
                assertThat(status.getJsonObject("output").getMap()).isEqualTo(Map.of("a", 1, "b", 2, "c", 3, "d", 4,
                        "payload", Map.of("order", id)));
                assertThat(ownerOf(b, id)).as("the survivor owns the instance now").isEqualTo(survivor.name());
                HttpResponse<String> counts = survivor.get(survivor.publicUrl("/counts"));
                assertThat(counts.statusCode()).as(counts.body()).isEqualTo(200);
                System.out.println("workflow IT: side effects per step " + counts.body());
                return new JsonObject(counts.body());
            }
        }
    }

    private static String ownerOf(BucketStore b, String instanceId) {
        var own = b.get("cells/" + WorkflowCells.scopeOf(WORKFLOW, instanceId) + "/own.json").join();
        return own.map(o -> new JsonObject(new String(o.bytes(), StandardCharsets.UTF_8)).getString("node")).orElse(null);
    }
}
