package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.worker.JsThreads;
import dev.cellgate.core.worker.WorkerPool;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import io.vertx.core.Context;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 22: every lane holds an instance of the code before its first request (the node declares
 * itself ready only then), and an instance warmed for code not yet installed serves nothing until
 * it is installed. Each instance answers when its context evaluated the module.
 */
class WorkerPoolWarmTest {
    static String worker(String version) {
        return "const evaluatedAt = Date.now(); let calls = 0;\n"
                + "export default { fetch() { calls++; return Response.json({ version: '" + version + "', evaluatedAt, calls }); } };";
    }

    @Test
    void everyLaneHasAnInstanceBeforeItsFirstRequestAndWarmedCodeWaitsForItsInstall() throws Exception {
        try (TestEngine engine = new TestEngine()) {
            LoadedScript v1 = engine.load(Bundles.of(Map.of("index.js", worker("v1")), Map.of(), Map.of()));
            LoadedScript v2 = engine.load(Bundles.of(Map.of("index.js", worker("v2")), Map.of(), Map.of()));
            WorkerPool pool = new WorkerPool(LaneRunawayTest.NO_CELLS, new JsThreads(engine.vertx, 4, 30_000), 2, 2);
            // Two event loops: each prefers its own lane.
            Context[] loops = {engine.vertx.getOrCreateContext(), engine.vertx.getOrCreateContext()};

            pool.warm(v1).get(60, TimeUnit.SECONDS);
            pool.install(v1);
            long warmedBy = System.currentTimeMillis();
            Thread.sleep(20);
            for (Context loop : loops) {
                JsonObject a = answer(pool, loop);
                assertThat(a.getString("version")).isEqualTo("v1");
                assertThat(a.getLong("evaluatedAt")).as("this lane's instance was made before its first request")
                        .isLessThanOrEqualTo(warmedBy);
                assertThat(a.getInteger("calls")).as("the warm-up request never reaches the Worker's fetch").isEqualTo(1);
            }

            pool.warm(v2).get(60, TimeUnit.SECONDS);
            for (Context loop : loops) {
                assertThat(answer(pool, loop).getString("version")).as("warmed, not installed: v1 still serves").isEqualTo("v1");
            }
            long v2WarmedBy = System.currentTimeMillis();
            Thread.sleep(20);
            pool.install(v2);
            for (Context loop : loops) {
                JsonObject a = answer(pool, loop);
                assertThat(a.getString("version")).isEqualTo("v2");
                assertThat(a.getLong("evaluatedAt")).as("the installed code's instance is the one warmed ahead")
                        .isLessThanOrEqualTo(v2WarmedBy);
            }
        }
    }

    private static JsonObject answer(WorkerPool pool, Context loop) throws Exception {
        CompletableFuture<dev.cellgate.core.spi.js.HttpResponseData> f = new CompletableFuture<>();
        loop.runOnContext(v -> pool.fetch(loop, new HttpRequestData("GET", "http://w/", List.of(), Body.EMPTY, "r"))
                .whenComplete((r, e) -> {
                    if (e != null) {
                        f.completeExceptionally(e);
                    } else {
                        f.complete(r);
                    }
                }));
        return new JsonObject(Responses.text(f.get(60, TimeUnit.SECONDS)));
    }
}
