package dev.cellgate.js.graal.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.support.OriginServer;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * AsyncLocalStorage across requests that interleave on one Worker: each request's store survives
 * await, timers, microtasks, outbound fetch and its body, whatever the other requests do meanwhile.
 * The same checks against the naive stand-in ({@link NodeModulesConfig#naiveAsyncContextForNegativeControl})
 * must fail: they are what would catch a store kept in a global.
 */
class AsyncLocalStorageTest {
    static final String WORKER = """
            import { AsyncLocalStorage } from 'node:async_hooks';
            const als = new AsyncLocalStorage();
            const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
            export default {
              async fetch(req) {
                const id = new URL(req.url).searchParams.get('id');
                const origin = req.headers.get('x-origin');
                return als.run(id, async () => {
                  const seen = [];
                  await sleep(Number(id) % 3 + 1); seen.push(als.getStore());
                  await new Promise((r) => queueMicrotask(r)); seen.push(als.getStore());
                  const res = await fetch(origin + '/text'); seen.push(als.getStore());
                  await res.text(); seen.push(als.getStore());
                  await new Promise((r) => setTimeout(() => { seen.push(als.getStore()); r(); }, 2));
                  return new Response(seen.join(','));
                });
              },
            };
            """;

    static final int REQUESTS = 8;

    /** What each request saw, by request id. */
    static List<String> run() throws Exception {
        try (TestEngine engine = new TestEngine(); OriginServer origin = OriginServer.start(engine.vertx)) {
            ScriptBundle bundle = new ScriptBundle("als", "als", "worker.js", Map.of("worker.js", WORKER), Map.of(), Map.of(),
                    "2026-01-15", List.of("nodejs_compat"));
            try (TestWorker worker = engine.worker(bundle)) {
                List<CompletableFuture<HttpResponseData>> pending = new ArrayList<>();
                for (int i = 0; i < REQUESTS; i++) {
                    pending.add(worker.send(new HttpRequestData("GET", "http://w/?id=" + i,
                            List.of(Map.entry("x-origin", origin.url())), Body.EMPTY, "als-" + i)));
                }
                List<String> seen = new ArrayList<>();
                for (CompletableFuture<HttpResponseData> f : pending) {
                    seen.add(new String(Responses.bytes(f.get(60, TimeUnit.SECONDS).body()), StandardCharsets.UTF_8));
                }
                return seen;
            }
        }
    }

    static List<String> expected() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            out.add(String.join(",", String.valueOf(i), String.valueOf(i), String.valueOf(i), String.valueOf(i), String.valueOf(i)));
        }
        return out;
    }

    @Test
    void eachInterleavedRequestKeepsItsStoreAcrossAwaitTimersAndHostCallbacks() throws Exception {
        assertThat(run()).isEqualTo(expected());
    }

    @Test
    void theChecksCatchAStoreKeptInAGlobal() throws Exception {
        NodeModulesConfig.naiveAsyncContextForNegativeControl = true;
        try {
            assertThat(run()).as("the naive AsyncLocalStorage must be seen broken").isNotEqualTo(expected());
        } finally {
            NodeModulesConfig.naiveAsyncContextForNegativeControl = false;
        }
    }
}
