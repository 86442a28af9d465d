package dev.cellgate.js.graal.bindings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.bindings.FleetBindings;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.support.HostedCells;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A new deployment changes the code of a running instance at its next wake: an instance that
 * completed a step and waits for an event under deployment 1 is woken under deployment 2, whose
 * binding of the same Workflow names another class; the replay runs that class, the stored step
 * keeps the result deployment 1 computed, and the rest runs deployment 2's code.
 */
class WorkflowDeploymentSwitchTest {
    static String worker(String className, String version) {
        return """
                import { WorkflowEntrypoint } from 'cloudflare:workers';
                export class %s extends WorkflowEntrypoint {
                  async run(event, step) {
                    const first = await step.do('first', async () => 'first by %s');
                    const e = await step.waitForEvent('go', { type: 'go', timeout: '1 minute' });
                    const last = await step.do('last', async () => 'last by %s');
                    return [first, e.payload, last];
                  }
                }
                export default {
                  async fetch(request, env) {
                    const url = new URL(request.url);
                    if (url.pathname === '/create') return Response.json((await env.FLOW.create({ id: 'i-1' })).id);
                    const i = await env.FLOW.get('i-1');
                    if (url.pathname === '/send') { await i.sendEvent({ type: 'go', payload: '%s' }); return Response.json('sent'); }
                    return Response.json(await i.status());
                  },
                };
                """.formatted(className, version, version, version);
    }

    static ScriptBundle bundle(String className, String version) {
        return new ScriptBundle("w", "w", "worker.js", Map.of("worker.js", worker(className, version)), Map.of(), Map.of(), "2025-04-01", List.of())
                .withBindings(List.of(new EnvBinding("FLOW", "workflow", new JsonObject().put("workflow_name", "orders").put("class_name", className))));
    }

    @Test
    void theNextWakeRunsTheNewDeploymentsClassAgainstTheStoredSteps() throws Exception {
        try (TestEngine engine = new TestEngine(FleetBindings.registry(null))) {
            LoadedScript v1 = engine.load(bundle("FlowOne", "v1"));
            LoadedScript v2 = engine.load(bundle("FlowTwo", "v2"));
            AtomicReference<LoadedScript> current = new AtomicReference<>(v1);
            try (HostedCells cells = new HostedCells(engine.vertx, current::get)) {
                HostedCells.Worker w1 = cells.worker();
                get(w1, "/create");
                JsonObject status = new JsonObject(get(w1, "/status"));
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!"waiting".equals(status.getString("status")) && System.nanoTime() < end) {
                    Thread.sleep(20);
                    status = new JsonObject(get(w1, "/status"));
                }
                assertThat(status.getString("status")).as("suspended on its event under deployment 1: " + status).isEqualTo("waiting");
                w1.close();

                current.set(v2);
                cells.cells().moveToCurrentCode();
                HostedCells.Worker w2 = cells.worker();
                get(w2, "/send");
                end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!"complete".equals(status.getString("status")) && !"errored".equals(status.getString("status")) && System.nanoTime() < end) {
                    Thread.sleep(20);
                    status = new JsonObject(get(w2, "/status"));
                }
                assertThat(status.getString("status")).as(status.encode()).isEqualTo("complete");
                assertThat(status.getJsonArray("output").getList()).containsExactly("first by v1", "v2", "last by v2");
                w2.close();
            }
        }
    }

    private static String get(HostedCells.Worker w, String path) throws Exception {
        return Responses.text(w.send(new HttpRequestData("GET", "http://flow.test" + path, List.of(), Body.EMPTY, "t")).get(30, TimeUnit.SECONDS));
    }
}
