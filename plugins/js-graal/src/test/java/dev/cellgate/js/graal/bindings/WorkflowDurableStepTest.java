package dev.cellgate.js.graal.bindings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.bindings.WorkflowProvider;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.BindingRegistry;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.support.HeldReplicator;
import dev.cellgate.js.graal.support.HostedCells;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A step counts as done only once its result is durable: while the bucket holds every upload back
 * ({@link HeldReplicator} under the real cell host), the instance's next step — and its side
 * effect, a request to an origin here — does not start. Once the uploads land, the run goes on and
 * completes. The broken variant ({@code WorkflowProvider(memoDeferred = true)}: results kept in
 * memory) lets the next step's side effect out while the first result is not durable, and the same
 * check sees it.
 */
class WorkflowDurableStepTest {
    static final String WORKER = """
            import { WorkflowEntrypoint } from 'cloudflare:workers';
            export class Flow extends WorkflowEntrypoint {
              async run(event, step) {
                const origin = event.payload.origin;
                const one = await step.do('one', async () => (await fetch(origin + '/one')).status);
                const two = await step.do('two', async () => (await fetch(origin + '/two')).status);
                return [one, two];
              }
            }
            export default {
              async fetch(request, env) {
                const url = new URL(request.url);
                if (url.pathname === '/start') {
                  return Response.json((await env.FLOW.create({ id: 'i-1', params: { origin: url.searchParams.get('origin') } })).id);
                }
                return Response.json(await (await env.FLOW.get('i-1')).status());
              },
            };
            """;

    @Test
    void theNextStepWaitsUntilTheStepBeforeIsDurable() throws Exception {
        assertThat(nextStepRanBeforeDurability(false)).as("the second step's request, while the first step's result is not durable").isZero();
    }

    @Test
    void theBrokenVariantLetsTheNextStepRunEarlyAndTheCheckSeesIt() throws Exception {
        assertThat(nextStepRanBeforeDurability(true)).as("with results kept in memory, the second step runs at once").isEqualTo(1);
    }

    /** How often /two was requested while every upload was held after /one had been answered. */
    private static int nextStepRanBeforeDurability(boolean memoDeferred) throws Exception {
        try (TestEngine engine = new TestEngine(BindingRegistry.of(new WorkflowProvider(memoDeferred)))) {
            Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
            HttpServer origin = engine.vertx.createHttpServer().requestHandler(r -> {
                hits.computeIfAbsent(r.path(), p -> new AtomicInteger()).incrementAndGet();
                r.response().end("ok");
            });
            origin.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().join();
            String originUrl = "http://127.0.0.1:" + origin.actualPort();
            ScriptBundle bundle = new ScriptBundle("w", "w", "worker.js", Map.of("worker.js", WORKER), Map.of(), Map.of(), "2025-04-01", List.of())
                    .withBindings(List.of(new EnvBinding("FLOW", "workflow", new JsonObject().put("workflow_name", "f").put("class_name", "Flow"))));
            HeldReplicator replicator = new HeldReplicator();
            try (LoadedScript script = engine.load(bundle); HostedCells cells = new HostedCells(engine.vertx, script, 3_600_000, replicator, true)) {
                HostedCells.Worker worker = cells.worker();
                releasingUntilDone(replicator, worker.send(get("/start?origin=" + originUrl)));
                long end = System.nanoTime() + 30_000_000_000L;
                while (count(hits, "/one") == 0 && System.nanoTime() < end) {
                    replicator.releaseAll(); // the create, the first attempt's bookkeeping: not what is under test
                    Thread.sleep(10);
                }
                assertThat(count(hits, "/one")).as("the first step ran").isEqualTo(1);
                // From here on nothing is released: the first step's result is written but not durable.
                Thread.sleep(1500);
                int early = count(hits, "/two");
                JsonObject status = new JsonObject();
                end = System.nanoTime() + 30_000_000_000L;
                while (!"complete".equals(status.getString("status")) && System.nanoTime() < end) {
                    HttpResponseData r = releasingUntilDone(replicator, worker.send(get("/status")));
                    status = new JsonObject(Responses.text(r));
                    Thread.sleep(20);
                }
                assertThat(status.getString("status")).as(status.encode()).isEqualTo("complete");
                assertThat(status.getJsonArray("output").getList()).containsExactly(200, 200);
                assertThat(count(hits, "/one")).as("the first step ran once").isEqualTo(1);
                assertThat(count(hits, "/two")).as("the second step ran once").isEqualTo(1);
                replicator.stopHolding();
                worker.close();
                return early;
            } finally {
                origin.close();
            }
        }
    }

    private static int count(Map<String, AtomicInteger> hits, String path) {
        AtomicInteger n = hits.get(path);
        return n == null ? 0 : n.get();
    }

    private static HttpRequestData get(String pathAndQuery) {
        return new HttpRequestData("GET", "http://flow.test" + pathAndQuery, List.of(), Body.EMPTY, "t");
    }

    private static HttpResponseData releasingUntilDone(HeldReplicator replicator, CompletableFuture<HttpResponseData> f) throws Exception {
        while (!f.isDone()) {
            replicator.releaseAll();
            Thread.sleep(10);
        }
        return f.get();
    }
}
