package dev.cellgate.js.graal.bindings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.bindings.ServiceBindingProvider;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.BindingRegistry;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.js.graal.JsLimits;
import dev.cellgate.js.graal.GraalJsEngine;
import dev.cellgate.js.graal.host.ServiceCalls;
import dev.cellgate.js.graal.support.HostedCells;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a service binding to the Worker itself guarantees beyond the answers the differential
 * compares, each checked against its broken variant: an RpcTarget an entrypoint returns lives until
 * the caller's request ends (and no longer: nothing leaks), a Durable Object may call a service
 * binding inside {@code blockConcurrencyWhile}, and a deployment whose binding names another Worker
 * or an entrypoint that is not exported is refused when it loads.
 */
class ServiceBindingLifetimeTest {
    private static final String SOURCE = """
            import { WorkerEntrypoint, DurableObject, RpcTarget } from 'cloudflare:workers';
            class Counter extends RpcTarget {
              constructor(n) { super(); this.n = n; }
              inc() { return ++this.n; }
            }
            export class Api extends WorkerEntrypoint {
              counter(n) { return new Counter(n); }
              add(a, b) { return a + b; }
            }
            export class Store extends DurableObject {
              blocked() { return this.ctx.blockConcurrencyWhile(() => this.env.API.add(40, 2)); }
            }
            export default {
              async fetch(request, env) {
                const path = new URL(request.url).pathname;
                try {
                  if (path === '/counter') {
                    const c = await env.API.counter(1);
                    return new Response(String(await c.inc()) + ' ' + (await c.inc()));
                  }
                  if (path === '/blocked') return new Response(String(await env.STORE.getByName('b').blocked()));
                } catch (e) {
                  return new Response(e.name + ': ' + e.message);
                }
                return new Response('no route', { status: 404 });
              },
            };
            """;

    private TestEngine engine;

    @AfterEach
    void stop() {
        ServiceCalls.brokenGatedForTests = false;
        ServiceCalls.brokenUnlentForTests = false;
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void aTargetReturnedByAnEntrypointLivesUntilTheCallersRequestEnds() throws Exception {
        assertThat(run("/counter", 30_000)).isEqualTo("2 3");
        var exports = engine.engine.rpcExports();
        for (int i = 0; i < 100 && exports.liveExports() != 0; i++) {
            Thread.sleep(50);
        }
        assertThat(exports.liveExports()).as("the Counter is released with the request that held it").isZero();
        assertThat(exports.liveRefs()).isZero();
    }

    @Test
    void negativeControlATargetOwnedByTheCallDiesWhenTheCallReturns() throws Exception {
        ServiceCalls.brokenUnlentForTests = true;
        assertThat(run("/counter", 30_000)).isEqualTo("Error: The execution context which hosts this callback is no longer running.");
    }

    @Test
    void aDurableObjectCallsAServiceBindingInsideBlockConcurrencyWhile() throws Exception {
        // a call held by the gate cannot answer at all: the 2 s block times out and breaks the object
        // (the negative control below sees exactly that), so the answer alone proves the gate was passed
        assertThat(run("/blocked", 2_000)).isEqualTo("42");
    }

    @Test
    void negativeControlAGatedServiceCallWaitsOutTheBlock() throws Exception {
        ServiceCalls.brokenGatedForTests = true;
        // the call waits behind the gate its own caller holds, until blockConcurrencyWhile times out and breaks the object
        assertThat(run("/blocked", 2_000)).contains("blockConcurrencyWhile");
    }

    @Test
    void aBindingToAnotherWorkerIsRefusedWhenTheDeploymentLoads() {
        engine = newEngine(30_000);
        ScriptBundle b = bundle(List.of(service("API", "another-worker", "Api")));
        assertThatThrownBy(() -> engine.load(b)).isInstanceOf(ScriptLoadException.class)
                .hasMessageContaining("binding API is a service binding to the Worker \"another-worker\", but a cellgate fleet runs one"
                        + " Worker (\"svc\"): only service bindings to that Worker itself are implemented");
    }

    @Test
    void aBindingToAnEntrypointThatIsNotExportedIsRefusedWhenTheDeploymentLoads() {
        engine = newEngine(30_000);
        ScriptBundle b = bundle(List.of(service("API", "svc", "Missing")));
        assertThatThrownBy(() -> engine.load(b)).isInstanceOf(ScriptLoadException.class)
                .hasMessageContaining("refers to the entrypoint \"Missing\", which index.js does not export");
    }

    private String run(String path, long blockTimeoutMs) throws Exception {
        engine = newEngine(blockTimeoutMs);
        var script = engine.load(bundle(List.of(service("API", "svc", "Api"))));
        try (HostedCells cells = new HostedCells(engine.vertx, script); HostedCells.Worker worker = cells.worker()) {
            var r = worker.send(new HttpRequestData("GET", "http://svc.test" + path, List.of(), Body.EMPTY, "t" + path))
                    .get(60, TimeUnit.SECONDS);
            return Responses.text(r);
        }
    }

    private static TestEngine newEngine(long blockTimeoutMs) {
        return new TestEngine(new JsLimits(30_000, JsLimits.defaultAllocationLimit(), 10, blockTimeoutMs), GraalJsEngine.Gates.ENFORCED,
                TestEngine.LOCAL_ORIGINS, BindingRegistry.of(new ServiceBindingProvider()));
    }

    private static EnvBinding service(String name, String worker, String entrypoint) {
        return new EnvBinding(name, "service", new JsonObject().put("service", worker).put("entrypoint", entrypoint));
    }

    private static ScriptBundle bundle(List<EnvBinding> bindings) {
        return new ScriptBundle("svc-deploy", "svc", "index.js", Map.of("index.js", SOURCE), Map.of(), Map.of("STORE", "Store"),
                "2025-12-01", List.of()).withBindings(bindings);
    }
}
