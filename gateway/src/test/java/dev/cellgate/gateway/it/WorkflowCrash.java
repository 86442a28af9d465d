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
 * effect in a Durable Object, so a re-run shows as a count of 2), the step in flight runs again
 * (at least once) and ends once, the rest run once. The kill waits until the third step has
 * started, not for the second step's side effect: a step whose result is not durable yet is still
 * in flight (the first version of this test killed on the side effect and, on a loaded box, saw the
 * second step run twice — correctly). The broken variant ({@link WorkflowProvider#BROKEN_MEMO_PROPERTY}: step results kept in
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
                // The node is killed while this step waits: it started (so 'charge' is durable) and is
                // in flight, so it runs again on the survivor ('pack started' twice), its end once.
                const c = await step.do('pack', async () => {
                  await hit('pack started');
                  await new Promise((r) => setTimeout(r, 4000));
                  await hit('pack');
                  return b + 1;
                });
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
        try (Fleet f = Fleet.onBucket(dir, S3Env.require().freshUrl("workflow-fleet"), Map.of())) {
            try (BucketStore b = f.openBucket()) {
                TestDeployments.publish(b, "shop", Map.of("index.js", WORKER), "index.js", Map.of("COUNTER", "Counter"),
                        List.of(new WorkflowBinding("FLOW", WORKFLOW, "OrderFlow")));
                // Both nodes start at once (the start-ups are most of this test's time).
                NodeProcess n1 = launch(f, "n1", jvmArgs);
                NodeProcess n2 = launch(f, "n2", jvmArgs);
                for (NodeProcess n : List.of(n1, n2)) {
                    n.awaitLine(l -> l.contains("\"event\":\"node.listening\""), Duration.ofSeconds(300));
                    n.awaitHealthy(Duration.ofSeconds(300));
                }
                System.out.printf("workflow IT: nodes up after %,d ms%n", Duration.ofNanos(System.nanoTime() - started).toMillis());
                String id = "order-1";
                HttpResponse<String> created = n1.get(n1.publicUrl("/create?id=" + id));
                assertThat(created.statusCode()).as(created.body()).isEqualTo(200);

                // Wait until the third step is under way: it starts only once the second step's result
                // is durable, so from then on the two first steps have completed. (Their side effects
                // alone would not say so: a step whose result is not durable yet is still in flight.)
                JsonObject seen = new JsonObject();
                long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (seen.getInteger("pack started", 0) < 1 && System.nanoTime() < end) {
                    Thread.sleep(100);
                    HttpResponse<String> r = n1.get(n1.publicUrl("/counts"));
                    if (r.statusCode() == 200) {
                        seen = new JsonObject(r.body());
                    }
                }
                assertThat(seen.getInteger("pack started", 0)).as("the third step started before the kill: " + seen).isEqualTo(1);
                assertThat(seen.getInteger("pack", 0)).as("and had not ended: " + seen).isZero();
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

    private static NodeProcess launch(Fleet f, String name, List<String> jvmArgs) throws Exception {
        NodeProcess n = NodeProcess.launch(name, f.root.resolve(name), Map.of("CELLD_BUCKET", f.bucketUrl, "CELLD_TTL_MS", String.valueOf(TTL_MS)),
                jvmArgs);
        f.nodes.add(n); // the fleet stops it when it closes
        return n;
    }

    private static String ownerOf(BucketStore b, String instanceId) {
        var own = b.get("cells/" + WorkflowCells.scopeOf(WORKFLOW, instanceId) + "/own.json").join();
        return own.map(o -> new JsonObject(new String(o.bytes(), StandardCharsets.UTF_8)).getString("node")).orElse(null);
    }
}
