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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Measures the cold paths of the engine, not a test: JVM start to engine, {@code load(bundle)},
 * the first request of the first Worker, then the cost of each further new context (a new Worker
 * on a fresh executor, first request included). Run it with the flags the gateway's child JVM
 * gets (JIT on), e.g. through {@code bench/cold-path.sh}-style invocation:
 *
 * <pre>java -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI --upgrade-module-path=... -cp ... \
 *   dev.cellgate.js.graal.bench.ColdPath [bundle.js] [contexts]</pre>
 */
public final class ColdPath {
    public static void main(String[] args) throws Exception {
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        String source = args.length > 0 && !args[0].equals("-") ? Files.readString(Path.of(args[0]))
                : "export default { async fetch(req) { return new Response('hello'); } };";
        int contexts = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        long t0 = System.nanoTime();
        long c0 = processCpuMs();
        long m0 = threadCpuMs();
        Vertx vertx = Vertx.vertx();
        GraalJsEngine engine = new GraalJsEngine(new JsEngineConfig(vertx, 30_000, 1 << 20, "bench"),
                new JsLimits(30_000, JsLimits.defaultAllocationLimit(), 10));
        long t1 = System.nanoTime();
        long c1 = processCpuMs();
        long m1 = threadCpuMs();
        if (Boolean.getBoolean("coldpath.threads")) {
            System.out.println("after engine create:");
            threadCpu();
        }
        ScriptBundle bundle = new ScriptBundle("bench", "bench", "index.js", Map.of("index.js", source), Map.of(), Map.of(),
                "2025-01-01", List.of());
        LoadedScript script = engine.load(bundle);
        long t2 = System.nanoTime();
        long c2 = processCpuMs();
        long m2 = threadCpuMs();
        if (Boolean.getBoolean("coldpath.threads")) {
            System.out.println("after load:");
            threadCpu();
        }
        String first = fetchOnNewWorker(script);
        long t3 = System.nanoTime();
        long c3 = processCpuMs();
        System.out.printf("engine %s (%s)%n", engine.info().name(), engine.info().mode());
        System.out.printf("jvm start -> main: %d ms%n", (System.currentTimeMillis() - jvmStart) - ms(t0, System.nanoTime()));
        System.out.printf("engine create: %d ms wall, %d ms process CPU, %d ms main-thread CPU%n", ms(t0, t1), c1 - c0, m1 - m0);
        System.out.printf("load(bundle): %d ms wall, %d ms process CPU, %d ms main-thread CPU%n", ms(t1, t2), c2 - c1, m2 - m1);
        System.out.printf("first worker + first request: %d ms wall, %d ms process CPU, %d ms executor-thread CPU (answered '%s')%n",
                ms(t2, t3), c3 - c2, EXECUTOR_CPU_NANOS.get() / 1_000_000, first);
        System.out.printf("jvm start -> first answer: %d ms%n", System.currentTimeMillis() - jvmStart);
        if (Boolean.getBoolean("coldpath.threads")) {
            threadCpu();
        }
        long cpuBefore = processCpuMs();
        EXECUTOR_CPU_NANOS.set(0);
        long[] each = new long[contexts];
        long tailCpu = 0;
        int tail = contexts / 4;
        for (int i = 0; i < contexts; i++) {
            if (i == contexts - tail) {
                tailCpu = EXECUTOR_CPU_NANOS.get();
            }
            long s = System.nanoTime();
            fetchOnNewWorker(script);
            each[i] = System.nanoTime() - s;
        }
        tailCpu = EXECUTOR_CPU_NANOS.get() - tailCpu;
        long cpuAfter = processCpuMs();
        if (Boolean.getBoolean("coldpath.threads")) {
            System.out.println("after the contexts:");
            threadCpu();
        }
        long[] sorted = each.clone();
        Arrays.sort(sorted);
        if (contexts > 0) {
        List<Long> firstTen = new ArrayList<>();
        for (int i = 0; i < Math.min(10, contexts); i++) {
            firstTen.add(each[i] / 1_000_000);
        }
        System.out.printf("new context + first request, %d times: first ten %s ms; median %.1f ms; min %.1f ms; last %.1f ms%n",
                contexts, firstTen, sorted[contexts / 2] / 1e6, sorted[0] / 1e6, each[contexts - 1] / 1e6);
            System.out.printf("process CPU per new context (all threads, JIT included): %.1f ms%n", (cpuAfter - cpuBefore) / (double) contexts);
            System.out.printf("executor-thread CPU per new context (context, runtime, module, first request): %.2f ms%n",
                    EXECUTOR_CPU_NANOS.get() / 1e6 / contexts);
            long[] tailWall = Arrays.copyOfRange(each, contexts - tail, contexts);
            Arrays.sort(tailWall);
            System.out.printf("last %d contexts (warm): executor-thread CPU %.2f ms per context, wall median %.1f ms%n",
                    tail, tailCpu / 1e6 / Math.max(1, tail), tail == 0 ? 0 : tailWall[tail / 2] / 1e6);
        }
        engine.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        System.exit(0);
    }

    /** CPU time per OS thread of this process (Linux /proc), JIT compiler and GC threads included. */
    private static void threadCpu() throws java.io.IOException {
        java.util.Map<String, Long> byName = new java.util.TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : tasks.toList()) {
                if (!Files.exists(t.resolve("comm"))) {
                    continue; // the thread ended meanwhile
                }
                String name = Files.readString(t.resolve("comm")).strip().replaceAll("\\d+$", "#");
                String[] stat = Files.readString(t.resolve("stat")).replaceAll("^.*\\) ", "").split(" ");
                long ticks = Long.parseLong(stat[11]) + Long.parseLong(stat[12]);
                byName.merge(name, ticks * 10, Long::sum);
            }
        }
        byName.entrySet().stream().sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed()).limit(12)
                .forEach(e -> System.out.printf("  thread %-24s %6d ms CPU%n", e.getKey(), e.getValue()));
    }


    /** CPU time of the executor threads inside newWorker + the first fetch turn (the context's own cost). */
    static final java.util.concurrent.atomic.AtomicLong EXECUTOR_CPU_NANOS = new java.util.concurrent.atomic.AtomicLong();

    private static long threadCpuNanos() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    private static long processCpuMs() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1_000_000;
    }

    private static long threadCpuMs() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1_000_000;
    }

    private static long ms(long a, long b) {
        return (b - a) / 1_000_000;
    }

    private static String fetchOnNewWorker(LoadedScript script) throws Exception {
        ExecutorService ex = Executors.newSingleThreadExecutor();
        try {
            InstanceHost host = new InstanceHost() {
                @Override
                public java.util.concurrent.Executor executor() {
                    return ex;
                }

                @Override
                public StubChannel stubs() {
                    return null;
                }
            };
            CompletableFuture<HttpResponseData> f = CompletableFuture.supplyAsync(() -> {
                long cpu0 = threadCpuNanos();
                WorkerInstance w = script.newWorker(host);
                CompletableFuture<HttpResponseData> r = w.fetch(new HttpRequestData("GET", "http://bench.test/hello", List.of(), Body.EMPTY, "bench"));
                EXECUTOR_CPU_NANOS.addAndGet(threadCpuNanos() - cpu0);
                return r;
            }, ex).thenCompose(x -> x);
            HttpResponseData r = f.get(60, TimeUnit.SECONDS);
            return r.body() instanceof Body.Bytes b ? new String(b.data()) : r.body().toString();
        } finally {
            ex.shutdown();
        }
    }
}
