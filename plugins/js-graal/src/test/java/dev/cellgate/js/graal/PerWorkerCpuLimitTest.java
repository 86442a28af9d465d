package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.CellInstance;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.WorkerInstance;
import dev.cellgate.js.graal.instance.LimitExceededException;
import dev.cellgate.js.graal.support.LocalCells;
import dev.cellgate.js.graal.support.MemoryStorage;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.SerialHost;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code limits.cpu_ms}: each deployment's own CPU budget per event, for its stateless instances
 * and its Durable Objects alike, in place of the engine's default (CELLD_CPU_MS) — below it or
 * above it — while another deployment loaded in the same engine keeps the default.
 */
class PerWorkerCpuLimitTest {
    /** The engine's default budget (CELLD_CPU_MS in a node). */
    static final long NODE_DEFAULT_MS = 300;
    static final String HEX = "b".repeat(64);
    static final String SOURCE = """
            import { DurableObject } from 'cloudflare:workers';
            const busy = (ms) => { const end = Date.now() + ms; while (Date.now() < end) { } };
            export class Hog extends DurableObject {
              fetch() { for (;;) { } }
              alarm() { for (;;) { } }
              spin() { for (;;) { } }
            }
            export default {
              async fetch(req, env) {
                const url = new URL(req.url);
                if (url.pathname === '/spin') { for (;;) { } }
                if (url.pathname === '/busy') { busy(Number(url.searchParams.get('ms'))); return new Response('done'); }
                if (url.pathname === '/rpc') {
                  try { await env.HOG.getByName('x').spin(); return new Response('returned'); } catch (e) { return new Response(String(e)); }
                }
                return new Response('ok');
              },
            };
            """;

    static TestEngine engine;

    @BeforeAll
    static void start() {
        // Allocation is not what these tests measure: until GraalJS compiles it, the busy loop's
        // Date.now() allocates ~1 GiB a second (a CI run stopped /busy?ms=1500 at a 1 GiB cap).
        engine = new TestEngine(new JsLimits(NODE_DEFAULT_MS, 64L << 30, 10));
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    static ScriptBundle bundle(String id, Long cpuMs) {
        return new ScriptBundle(id, "cpu-" + id, "index.js", Map.of("index.js", SOURCE), Map.of(), Map.of("HOG", "Hog"),
                "2025-01-01", List.of()).withCpuLimitMs(cpuMs);
    }

    static HttpRequestData get(String url) {
        return new HttpRequestData("GET", url, List.of(), Body.of(null), "req");
    }

    static <T> T on(SerialHost host, Callable<CompletableFuture<T>> op) throws Exception {
        return host.executor().submit(op).get().get(60, TimeUnit.SECONDS);
    }

    @Test
    void aWorkersLowLimitStopsItsEventsWhileAnotherDeploymentKeepsTheNodeDefault() throws Exception {
        try (TestWorker tight = engine.worker(bundle("tight", 50L)); TestWorker plain = engine.worker(bundle("plain", null))) {
            assertThatThrownBy(() -> tight.get("http://x.test/spin")).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(LimitExceededException.class)
                    .hasMessageContaining("exceeded its CPU budget of 50 ms (limits.cpu_ms)");
            // 150 ms of work: past the other Worker's 50, within the node default of 300
            assertThat(plain.text("http://x.test/busy?ms=150")).isEqualTo("done");
            assertThatThrownBy(() -> plain.get("http://x.test/spin")).cause().isInstanceOf(LimitExceededException.class)
                    .hasMessageContaining("exceeded its CPU budget of " + NODE_DEFAULT_MS + " ms (CELLD_CPU_MS)");
            assertThat(tight.text("http://x.test/ok")).as("the instance keeps serving").isEqualTo("ok");
        }
    }

    @Test
    void aWorkersLimitAboveTheNodeDefaultIsItsLimit() throws Exception {
        try (TestWorker generous = engine.worker(bundle("generous", 20_000L))) {
            // 1.5 s of work: several times the node default of 300 ms, well within the Worker's own 20 s
            assertThat(generous.text("http://x.test/busy?ms=1500")).isEqualTo("done");
        }
    }

    @Test
    void theDurableObjectsOfTheDeploymentHaveItsLimitForFetchAlarmAndRpc() throws Exception {
        LoadedScript script = engine.load(bundle("cells", 50L));
        try (SerialHost host = new SerialHost("hog", null, new MemoryStorage())) {
            CellInstance cell = host.executor().submit(() -> script.newCell("Hog", new CellIdentity("Hog", HEX, null), host)).get();
            assertThatThrownBy(() -> on(host, () -> cell.fetch(get("http://do/")))).cause().isInstanceOf(LimitExceededException.class)
                    .hasMessageContaining("exceeded its CPU budget of 50 ms (limits.cpu_ms)");
            assertThatThrownBy(() -> on(host, () -> cell.alarm(0, false))).cause().isInstanceOf(LimitExceededException.class)
                    .hasMessageContaining("exceeded its CPU budget of 50 ms (limits.cpu_ms)");
            host.executor().submit(cell::close).get();
        } finally {
            script.close();
        }
        // The caller is a Worker with the node default, so only the cell's own budget can stop the call.
        LoadedScript callee = engine.load(bundle("rpc-callee", 50L));
        LoadedScript caller = engine.load(bundle("rpc-caller", null));
        try (LocalCells cells = new LocalCells(callee); SerialHost host = new SerialHost("caller", cells, null)) {
            WorkerInstance w = host.executor().submit(() -> caller.newWorker(host)).get();
            HttpResponseData r = on(host, () -> w.fetch(get("http://x.test/rpc")));
            assertThat(new String(Responses.bytes(r.body()), StandardCharsets.UTF_8))
                    .contains("CPU budget of 50 ms (limits.cpu_ms)").contains("cell Hog:");
            host.executor().submit(w::close).get();
        } finally {
            caller.close();
            callee.close();
        }
    }
}
