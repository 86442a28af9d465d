package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.StubChannel;
import dev.cellgate.core.worker.JsThreads;
import dev.cellgate.core.worker.WorkerPool;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 29 item 1 on the real engine: stateless requests that reached a lane just as a handler in
 * it began to spin are moved to another lane, instead of waiting out the spinner's CPU budget.
 * bench/runaway measured other requests' p90 at 1.4 s beside a stateless spin with a 2 s budget
 * before the pool moved them.
 */
class LaneRunawayTest {
    static final long BUDGET_MS = 2_000;

    /** The Worker calls no Durable Object. */
    static final StubChannel NO_CELLS = new StubChannel() {
        @Override
        public CompletableFuture<HttpResponseData> fetch(dev.cellgate.core.spi.js.CellIdentity target, HttpRequestData request) {
            return CompletableFuture.failedFuture(new IllegalStateException("no cells here"));
        }

        @Override
        public CompletableFuture<byte[]> call(dev.cellgate.core.spi.js.CellIdentity target, String method, byte[] arguments) {
            return CompletableFuture.failedFuture(new IllegalStateException("no cells here"));
        }

        @Override
        public CompletableFuture<byte[]> callExport(String node, String key, String op, String pathJson, byte[] arguments) {
            return CompletableFuture.failedFuture(new IllegalStateException("no cells here"));
        }

        @Override
        public CompletableFuture<Void> releaseExport(String node, String key) {
            return CompletableFuture.completedFuture(null);
        }
    };

    @Test
    void requestsQueuedBehindASpinningHandlerAreAnsweredByAnotherLane() throws Exception {
        try (TestEngine engine = new TestEngine(new JsLimits(BUDGET_MS, 1L << 30, 10))) {
            LoadedScript script = engine.load(Bundles.of(Map.of("index.js", """
                    export default { fetch(request) {
                      if (new URL(request.url).pathname === '/spin') for (;;) {}
                      return new Response('hello');
                    } };"""), Map.of(), Map.of()));
            WorkerPool pool = new WorkerPool(NO_CELLS, new JsThreads(engine.vertx, 8, BUDGET_MS), 2, 4);
            pool.install(script);
            Context loop = engine.vertx.getOrCreateContext();
            assertThat(Responses.text(fetch(pool, loop, "/hello").get(30, TimeUnit.SECONDS))).isEqualTo("hello");
            CompletableFuture<HttpResponseData> spin = fetch(pool, loop, "/spin");
            Thread.sleep(5); // the spin has started: its lane is not held yet (50 ms), so these queue behind it
            List<CompletableFuture<HttpResponseData>> behind = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                behind.add(fetch(pool, loop, "/hello"));
            }
            long t0 = System.nanoTime();
            for (CompletableFuture<HttpResponseData> f : behind) {
                assertThat(Responses.text(f.get(30, TimeUnit.SECONDS))).isEqualTo("hello");
            }
            long waitedMs = (System.nanoTime() - t0) / 1_000_000;
            assertThat(spin).as("the spinner is still running: the answers came from another lane").isNotDone();
            assertThat(waitedMs).as("answered long before the spinner's %d ms budget ended", BUDGET_MS).isLessThan(BUDGET_MS / 2);
            assertThat(spin.handle((r, e) -> e).get(30, TimeUnit.SECONDS)).as("the spinner is stopped by its budget").isNotNull();
        }
    }

    private static CompletableFuture<HttpResponseData> fetch(WorkerPool pool, Context loop, String path) {
        CompletableFuture<HttpResponseData> f = new CompletableFuture<>();
        loop.runOnContext(v -> pool.fetch(loop, new HttpRequestData("GET", "http://w" + path, List.of(), Body.EMPTY, "r"))
                .whenComplete((r, e) -> {
                    if (e != null) {
                        f.completeExceptionally(e);
                    } else {
                        f.complete(r);
                    }
                }));
        return f;
    }
}
