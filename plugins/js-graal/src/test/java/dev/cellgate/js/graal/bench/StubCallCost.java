package dev.cellgate.js.graal.bench;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.HostedCells;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The cost of a Durable Object RPC call as a Worker makes it ({@code await stub.method(x)}) on the
 * real cell host, in process: rounds of N sequential calls in one request, the wall time per call
 * and the process CPU per call printed per round. Compares the call path across changes
 * (RpcPromise/RpcProperty per call); on a loaded machine compare the CPU column.
 * {@code java -cp <test class path> dev.cellgate.js.graal.bench.StubCallCost [calls] [rounds]}
 */
public final class StubCallCost {
    private static final String SOURCE = """
            import { DurableObject } from 'cloudflare:workers';
            export class Target extends DurableObject {
              ping(x) { return x + 1; }
            }
            export default {
              async fetch(request, env) {
                const n = Number(new URL(request.url).searchParams.get('n'));
                const stub = env.TARGET.getByName('t');
                let x = 0;
                for (let i = 0; i < n; i++) x = await stub.ping(x);
                return new Response(String(x));
              },
            };
            """;

    private StubCallCost() {
    }

    /** CPU of the whole process (the Worker's and the cell's executors, the JIT): less load-sensitive than wall time. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        try (TestEngine engine = new TestEngine();
             HostedCells cells = new HostedCells(engine.vertx, engine.load(Bundles.of(Map.of("index.js", SOURCE), Map.of(), Map.of("TARGET", "Target"))));
             HostedCells.Worker worker = cells.worker()) {
            for (int r = 0; r < rounds; r++) {
                long t0 = System.nanoTime();
                long cpu0 = processCpuNanos();
                var resp = worker.send(new HttpRequestData("GET", "http://x.test/?n=" + calls, List.of(), Body.EMPTY, "bench")).get(300, TimeUnit.SECONDS);
                long us = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - t0);
                long cpuUs = TimeUnit.NANOSECONDS.toMicros(processCpuNanos() - cpu0);
                String body = Responses.text(resp);
                if (!body.equals(String.valueOf(calls))) {
                    throw new IllegalStateException("answered " + body);
                }
                System.out.printf("round %d: %.1f us/call wall, %.1f us/call process CPU%n", r, us / (double) calls, cpuUs / (double) calls);
            }
        }
    }
}
