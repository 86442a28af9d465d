package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.HostedCells;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A busy Durable Object moves between deployments on the real cell host and real GraalJS: under
 * a closed loop of clients (the cell is almost never quiet) every switch reaches the cell
 * promptly, no request fails or hangs, and the storage carries across.
 */
class DeploymentSwitchTest {
    static String source(String version) {
        return """
                import { DurableObject } from "cloudflare:workers";
                export class Box extends DurableObject {
                  async fetch() {
                    const n = ((await this.ctx.storage.get("n")) ?? 0) + 1;
                    await this.ctx.storage.put("n", n);
                    return new Response("%s:" + n);
                  }
                }
                export default { async fetch() { return new Response("%s"); } };
                """.formatted(version, version);
    }

    /**
     * Eight switches v1 -> v2 -> v1 ..., each through {@code install}; after each, waits until the
     * clients' latest answer comes from the new code (at most 5 s). Returns the slowest switch, ms.
     */
    static long switchBackAndForth(LoadedScript v1, LoadedScript v2, java.util.function.Consumer<LoadedScript> install,
                                   AtomicReference<String> lastSeen) throws InterruptedException {
        long worst = 0;
        for (int round = 0; round < 8; round++) {
            LoadedScript next = round % 2 == 0 ? v2 : v1;
            String version = next == v2 ? "v2:" : "v1:";
            long t0 = System.nanoTime();
            install.accept(next);
            while (!lastSeen.get().startsWith(version)) {
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).as("round %d reaches %s", round, version)
                        .isLessThan(5_000);
                Thread.sleep(5);
            }
            worst = Math.max(worst, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
            Thread.sleep(300);
        }
        return worst;
    }

    @Test
    void aBusyCellFollowsEverySwitchWithoutAFailedOrHungRequest() throws Exception {
        try (TestEngine engine = new TestEngine()) {
            LoadedScript v1 = engine.load(Bundles.of(Map.of("index.js", source("v1")), Map.of(), Map.of("BOX", "Box")));
            LoadedScript v2 = engine.load(Bundles.of(Map.of("index.js", source("v2")), Map.of(), Map.of("BOX", "Box")));
            AtomicReference<LoadedScript> current = new AtomicReference<>(v1);
            CellIdentity box = new CellIdentity("Box", "c".repeat(64), "x");
            try (HostedCells cells = new HostedCells(engine.vertx, current::get)) {
                AtomicBoolean stop = new AtomicBoolean();
                AtomicInteger answered = new AtomicInteger();
                AtomicReference<String> lastSeen = new AtomicReference<>("");
                java.util.concurrent.atomic.AtomicLong highest = new java.util.concurrent.atomic.AtomicLong();
                List<String> failures = new CopyOnWriteArrayList<>();
                List<Thread> clients = new ArrayList<>();
                for (int t = 0; t < 3; t++) {
                    Thread th = new Thread(() -> {
                        while (!stop.get()) {
                            try {
                                String body = Responses.text(cells.fetch(box,
                                        new HttpRequestData("GET", "http://do/", List.of(), Body.EMPTY, "r")).get(10, TimeUnit.SECONDS));
                                lastSeen.set(body);
                                highest.accumulateAndGet(Long.parseLong(body.substring(3)), Math::max);
                                answered.incrementAndGet();
                            } catch (Exception e) {
                                failures.add(e.toString());
                            }
                        }
                    });
                    th.start();
                    clients.add(th);
                }
                long worst = switchBackAndForth(v1, v2, next -> {
                    current.set(next);
                    cells.cells().moveToCurrentCode();
                }, lastSeen);
                stop.set(true);
                for (Thread th : clients) {
                    th.join();
                }
                System.out.printf("8 switches under load: slowest %d ms, %d answers%n", worst, answered.get());
                assertThat(failures).as("failed or hung requests").isEmpty();
                assertThat(highest.get()).as("one counter across all deployments").isEqualTo(answered.get());
            }
        }
    }

    @Test
    void workersOnEventLoopsFollowEverySwitchWhileTheirStubCallsAreInFlight() throws Exception {
        try (TestEngine engine = new TestEngine()) {
            String worker = """
                    export default {
                      async fetch(request, env) { return env.BOX.getByName("x").fetch(request); }
                    };
                    """;
            LoadedScript v1 = engine.load(Bundles.of(Map.of("index.js", source("v1").replace(
                    "export default { async fetch() { return new Response(\"v1\"); } };", worker)), Map.of(), Map.of("BOX", "Box")));
            LoadedScript v2 = engine.load(Bundles.of(Map.of("index.js", source("v2").replace(
                    "export default { async fetch() { return new Response(\"v2\"); } };", worker)), Map.of(), Map.of("BOX", "Box")));
            AtomicReference<LoadedScript> current = new AtomicReference<>(v1);
            try (HostedCells cells = new HostedCells(engine.vertx, current::get)) {
                // As from a peer: the cell's answer arrives as a stream, a little later, on another thread.
                dev.cellgate.core.spi.js.StubChannel remote = new dev.cellgate.core.spi.js.StubChannel() {
                    @Override
                    public java.util.concurrent.CompletableFuture<dev.cellgate.core.spi.js.HttpResponseData> fetch(CellIdentity target,
                            HttpRequestData request) {
                        return cells.fetch(target, request).thenApply(r -> {
                            byte[] data;
                            try {
                                data = Responses.bytes(r.body());
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                            java.util.concurrent.SubmissionPublisher<java.nio.ByteBuffer> pub = new java.util.concurrent.SubmissionPublisher<>();
                            java.util.concurrent.CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS).execute(() -> {
                                pub.submit(java.nio.ByteBuffer.wrap(data));
                                pub.close();
                            });
                            return new dev.cellgate.core.spi.js.HttpResponseData(r.status(), r.statusText(), r.headers(),
                                    new Body.Stream(pub, data.length));
                        });
                    }

                    @Override
                    public java.util.concurrent.CompletableFuture<byte[]> call(CellIdentity target, String method, byte[] arguments) {
                        return cells.call(target, method, arguments);
                    }

                    @Override
                    public java.util.concurrent.CompletableFuture<byte[]> callExport(String node, String key, String op, String pathJson,
                            byte[] arguments) {
                        return cells.callExport(node, key, op, pathJson, arguments);
                    }

                    @Override
                    public java.util.concurrent.CompletableFuture<Void> releaseExport(String node, String key) {
                        return cells.releaseExport(node, key);
                    }
                };
                dev.cellgate.core.worker.WorkerPool pool = new dev.cellgate.core.worker.WorkerPool(remote,
                        new dev.cellgate.core.worker.JsThreads(engine.vertx, 8, 30_000L), 2, 4);
                pool.install(v1);
                List<io.vertx.core.Context> loops = List.of(engine.vertx.getOrCreateContext(), engine.vertx.getOrCreateContext());
                AtomicBoolean stop = new AtomicBoolean();
                AtomicReference<String> lastSeen = new AtomicReference<>("");
                List<String> failures = new CopyOnWriteArrayList<>();
                List<Thread> clients = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    io.vertx.core.Context ctx = loops.get(t % 2);
                    Thread th = new Thread(() -> {
                        while (!stop.get()) {
                            java.util.concurrent.CompletableFuture<dev.cellgate.core.spi.js.HttpResponseData> f = new java.util.concurrent.CompletableFuture<>();
                            ctx.runOnContext(v -> pool.fetch(ctx, new HttpRequestData("GET", "http://w/", List.of(), Body.EMPTY, "r"))
                                    .whenComplete((r, e) -> {
                                        if (e != null) {
                                            f.completeExceptionally(e);
                                        } else {
                                            f.complete(r);
                                        }
                                    }));
                            try {
                                lastSeen.set(Responses.text(f.get(10, TimeUnit.SECONDS)));
                            } catch (Exception e) {
                                failures.add(e.toString());
                            }
                        }
                    });
                    th.start();
                    clients.add(th);
                }
                switchBackAndForth(v1, v2, next -> {
                    current.set(next);
                    pool.install(next);
                    cells.cells().moveToCurrentCode();
                }, lastSeen);
                stop.set(true);
                for (Thread th : clients) {
                    th.join();
                }
                assertThat(failures).as("failed or hung requests").isEmpty();
            }
        }
    }
}
