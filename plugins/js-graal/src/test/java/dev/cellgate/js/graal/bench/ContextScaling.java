package dev.cellgate.js.graal.bench;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.InstanceHost;
import dev.cellgate.core.spi.js.JsEngineConfig;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.StubChannel;
import dev.cellgate.core.spi.js.WorkerInstance;
import dev.cellgate.js.graal.GraalJsEngine;
import dev.cellgate.js.graal.JsLimits;
import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Measures, not a test: does the cost of constructing runtime objects ({@code new Response},
 * {@code new Headers}, a stream) in ONE context grow with the number of other live contexts on the
 * same engine? It did while the runtime scripts used {@code #private} fields (their per-context
 * keys share one hash, so the shared shape's transitions collide; bench/RESULTS.md "Finding A").
 * Keeps N Workers alive (each has built a Response, Headers and a stream once), then times a loop
 * of 2,000 constructions in the newest Worker at each N. Run with the JIT on (see README "Cold paths"):
 *
 * <pre>java ... dev.cellgate.js.graal.bench.ContextScaling [1,100,1000] [rounds]</pre>
 */
public final class ContextScaling {
    private static final String WORKER = """
            export default {
              async fetch(req) {
                const url = new URL(req.url);
                // resident cells hold such objects; the shape transitions of their fields live as long as they do
                globalThis.kept ??= [new Response('x', { headers: { a: 'b' } }), new Headers(), new ReadableStream(), req];
                const n = Number(url.searchParams.get('n') ?? '1');
                let sink = 0;
                for (let i = 0; i < n; i++) {
                  const r = new Response('x', { headers: { a: 'b' } });
                  const h = new Headers();
                  h.set('k', String(i));
                  sink += r.status + h.get('k').length + r.headers.get('a').length;
                }
                if (url.searchParams.has('stream')) {
                  for (let i = 0; i < n / 10; i++) {
                    sink += new ReadableStream({ start(c) { c.close(); } }).locked ? 0 : 1;
                  }
                }
                return new Response(String(sink));
              }
            };
            """;

    private static final int LOOP = Integer.getInteger("loop", 2_000);
    private static final int SPREAD_LOOP = 50;

    public static void main(String[] args) throws Exception {
        int[] steps = Arrays.stream((args.length > 0 ? args[0] : "1,100,1000").split(",")).mapToInt(Integer::parseInt).toArray();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Vertx vertx = Vertx.vertx();
        GraalJsEngine engine = new GraalJsEngine(new JsEngineConfig(vertx, 60_000, 1 << 20, "bench"),
                new JsLimits(60_000, JsLimits.defaultAllocationLimit(), 10));
        ScriptBundle bundle = new ScriptBundle("bench", "bench", "index.js", Map.of("index.js", WORKER), Map.of(), Map.of(),
                "2025-01-01", List.of());
        LoadedScript script = engine.load(bundle);
        List<Live> live = new ArrayList<>();
        try {
            for (int target : steps) {
                while (live.size() < target) {
                    Live w = new Live(script);
                    w.fetch(1); // this context initializes Response, Headers and a stream once
                    live.add(w);
                }
                Live first = live.get(live.size() - 1); // the newest: its keys sit last in a collision node
                first.fetch(LOOP); // warm-up: let the JIT compile the loop at this N
                long[] ns = new long[rounds];
                for (int r = 0; r < rounds; r++) {
                    ns[r] = first.fetch(LOOP);
                }
                Arrays.sort(ns);
                // CPU time of the executor thread: the box is shared, wall time would measure the neighbours
                System.out.printf("N=%5d live contexts: %,d x (new Response + new Headers) + %,d streams, executor CPU: median %.1f ms, min %.1f ms (%.1f us per iteration)%n",
                        live.size(), LOOP, LOOP / 10, ns[rounds / 2] / 1e6, ns[0] / 1e6, ns[rounds / 2] / 1e3 / LOOP);
                // the serving pattern: requests spread over the contexts (every resident cell gets some)
                int sample = Math.min(live.size(), 100);
                long spread = 0;
                for (int i = 0; i < sample; i++) {
                    spread += live.get(i * live.size() / sample).fetch(SPREAD_LOOP);
                }
                System.out.printf("N=%5d spread over %d contexts, %d iterations each: %.1f us per iteration%n",
                        live.size(), sample, SPREAD_LOOP, spread / 1e3 / sample / SPREAD_LOOP);
            }
        } finally {
            for (Live w : live) {
                w.close();
            }
            engine.close();
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        System.exit(0);
    }

    /** All Workers share one thread: a thread per context would measure the scheduler, not the engine. */
    private static final ExecutorService EXECUTOR = Executors.newSingleThreadExecutor();

    /** One Worker context kept alive. */
    private static final class Live implements AutoCloseable {
        private final ExecutorService executor = EXECUTOR;
        private final WorkerInstance worker;

        Live(LoadedScript script) throws Exception {
            InstanceHost host = new InstanceHost() {
                @Override
                public java.util.concurrent.Executor executor() {
                    return executor;
                }

                @Override
                public StubChannel stubs() {
                    return null;
                }
            };
            this.worker = CompletableFuture.supplyAsync(() -> script.newWorker(host), executor).get(60, TimeUnit.SECONDS);
        }

        /** Runs one request; returns the executor thread's CPU nanoseconds spent in it. */
        long fetch(int n) throws Exception {
            HttpRequestData req = new HttpRequestData("GET", "http://bench.test/?stream&n=" + n, List.of(), Body.EMPTY, "bench");
            long[] cpu = new long[1];
            HttpResponseData r = CompletableFuture.supplyAsync(() -> {
                long c0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                CompletableFuture<HttpResponseData> f = worker.fetch(req);
                cpu[0] = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - c0;
                return f;
            }, executor).thenCompose(f -> f).get(120, TimeUnit.SECONDS);
            if (r.status() != 200) {
                throw new IllegalStateException("bench worker answered " + r.status());
            }
            return cpu[0];
        }

        @Override
        public void close() throws Exception {
            executor.submit(worker::close).get(10, TimeUnit.SECONDS);
        }
    }
}
