package dev.cellgate.js.graal.bench;

import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.CellInstance;
import dev.cellgate.core.spi.js.JsEngineConfig;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.GraalJsEngine;
import dev.cellgate.js.graal.JsLimits;
import dev.cellgate.js.graal.support.MemoryStorage;
import dev.cellgate.js.graal.support.SerialHost;
import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Measures, not a test: {@code LoadedScript.newCell} (the "construct the Durable Object" phase of
 * cell.activated) on the cell's thread, wall and thread CPU, for never-seen cells, with a pause
 * between cells (as cells arrive on a node) so that a pool (system property
 * {@code cellgate.js.cellPool}, 0 = off) can refill. Same class path and flags as {@link ColdPath}:
 *
 * <pre>java ... -Dcellgate.js.cellPool=2 dev.cellgate.js.graal.bench.CellConstruct [bundle.js] [cells] [pause ms]</pre>
 */
public final class CellConstruct {
    public static void main(String[] args) throws Exception {
        String source = args.length > 0 && !args[0].equals("-") ? Files.readString(Path.of(args[0])) : """
                import { DurableObject } from 'cloudflare:workers';
                export class Counter extends DurableObject {
                  constructor(ctx, env) { super(ctx, env); this.n = 0; }
                  async fetch(req) { return new Response(String(++this.n)); }
                }
                export default { fetch() { return new Response('worker'); } };
                """;
        int cells = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        long pause = args.length > 2 ? Long.parseLong(args[2]) : 100;
        Vertx vertx = Vertx.vertx();
        GraalJsEngine engine = new GraalJsEngine(new JsEngineConfig(vertx, 30_000, 1 << 20, "bench"),
                new JsLimits(30_000, JsLimits.defaultAllocationLimit(), 10));
        ScriptBundle bundle = new ScriptBundle("bench", "bench", "index.js", Map.of("index.js", source), Map.of(),
                Map.of("COUNTER", "Counter"), "2025-01-01", List.of());
        LoadedScript script = engine.load(bundle);
        long[] wall = new long[cells];
        long[] cpu = new long[cells];
        for (int i = 0; i < cells; i++) {
            Thread.sleep(pause);
            String hex = String.format("%064x", i + 1);
            try (SerialHost host = new SerialHost("cell", null, new MemoryStorage())) {
                long[] out = host.executor().submit(() -> {
                    long c0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                    long w0 = System.nanoTime();
                    CellInstance cell = script.newCell("Counter", new CellIdentity("Counter", hex, null), host);
                    long w1 = System.nanoTime();
                    long c1 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                    cell.close();
                    return new long[] {w1 - w0, c1 - c0};
                }).get();
                wall[i] = out[0];
                cpu[i] = out[1];
            }
        }
        int from = cells / 2; // the warm half
        long[] w = Arrays.copyOfRange(wall, from, cells);
        long[] c = Arrays.copyOfRange(cpu, from, cells);
        Arrays.sort(w);
        Arrays.sort(c);
        System.out.printf("engine %s (%s), cellgate.js.cellPool=%s, %d cells, %d ms apart%n", engine.info().name(), engine.info().mode(),
                System.getProperty("cellgate.js.cellPool", "default"), cells, pause);
        System.out.printf("newCell, warm half: wall p50 %.2f ms p90 %.2f ms; cell-thread CPU p50 %.2f ms p90 %.2f ms%n",
                w[w.length / 2] / 1e6, w[w.length * 9 / 10] / 1e6, c[c.length / 2] / 1e6, c[c.length * 9 / 10] / 1e6);
        script.close();
        engine.close();
        vertx.close().toCompletionStage().toCompletableFuture().get();
        System.exit(0);
    }
}
