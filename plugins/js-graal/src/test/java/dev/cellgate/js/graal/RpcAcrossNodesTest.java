package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.ExportedObjects;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.js.StubChannel;
import dev.cellgate.core.spi.js.WorkerInstance;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.HostedCells;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.SerialHost;
import dev.cellgate.js.graal.support.TestEngine;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Stubs whose objects live on another node, on two engines in one process: "node-a" runs the Worker,
 * "node-b" the Durable Objects on the real cell host. {@link Link} stands in for the peer route
 * (calls and releases for a key go to the engine of the node the key names, through the
 * {@link ExportedObjects} seam), so this checks the engine's side: relays for another node's
 * objects, callbacks back to the Worker's node, stubs forwarded through a third object, releases
 * when the holder's request ends, each call delivered once, and a clear error when the other node
 * cannot be reached.
 */
class RpcAcrossNodesTest {
    private static final String SOURCE = """
            import { DurableObject, RpcTarget } from 'cloudflare:workers';
            const disposed = [];
            class Counter extends RpcTarget {
              constructor(n, tag) { super(); this.n = n; this.tag = tag; }
              inc(by = 1) { this.n += by; return this.n; }
              async callMe(f, x) { return await f(x); }
              [Symbol.dispose]() { disposed.push(this.tag); }
            }
            export class Owner extends DurableObject {
              counter(n, tag) { return new Counter(n, tag); }
              async callBack(f, x) { return await f(x); }
              disposed() { return disposed; }
              async relay(name) { return await this.env.OWNER.getByName(name).counter(3, 'relayed'); }
            }
            export default {
              async fetch(request, env) {
                const path = new URL(request.url).pathname;
                const owner = env.OWNER.getByName('o1');
                try {
                  if (path === '/remote-target') {
                    const c = await owner.counter(1, 'a');
                    const r = [await c.inc(), await c.inc(5)];
                    c[Symbol.dispose]();
                    return Response.json(r);
                  }
                  if (path === '/callback') return Response.json(await owner.callBack((x) => 'worker on node-a got ' + x, 'b'));
                  if (path === '/target-callback') return Response.json(await (await owner.counter(1, 'c')).callMe((x) => x * 2, 21));
                  if (path === '/forwarded') return Response.json(await (await env.OWNER.getByName('o2').relay('o3')).inc());
                  if (path === '/pipelined') return Response.json(await owner.counter(10, 'p').inc(1));
                  if (path === '/leave') { await (await owner.counter(1, 'left')).inc(); return Response.json('left'); }
                  if (path === '/disposed') return Response.json(await owner.disposed());
                } catch (e) {
                  return Response.json(['error', e.name, e.message]);
                }
                return new Response('no route', { status: 404 });
              },
            };
            """;

    TestEngine nodeA;
    TestEngine nodeB;
    HostedCells cellsB;
    Link link;
    SerialHost workerHost;
    WorkerInstance worker;

    /** The stand-in for the peer link: Durable Objects are on node-b; exported-object calls go to the key's node. */
    final class Link implements StubChannel {
        final AtomicInteger exportCalls = new AtomicInteger();
        volatile boolean nodeBReachable = true;

        private ExportedObjects engineOf(String node) {
            if (node.equals("node-a")) {
                return nodeA.engine.exportedObjects();
            }
            return node.equals("node-b") && nodeBReachable ? nodeB.engine.exportedObjects() : null;
        }

        @Override
        public CompletableFuture<HttpResponseData> fetch(CellIdentity target, HttpRequestData request) {
            return cellsB.fetch(target, request);
        }

        @Override
        public CompletableFuture<byte[]> call(CellIdentity target, String method, byte[] arguments) {
            return cellsB.call(target, method, arguments);
        }

        @Override
        public CompletableFuture<byte[]> callExport(String node, String key, String op, String pathJson, byte[] arguments) {
            ExportedObjects there = engineOf(node);
            if (there == null) {
                return CompletableFuture.failedFuture(new StubCallException("node " + node + " is unreachable", true, null));
            }
            exportCalls.incrementAndGet();
            return there.call(key, op, pathJson, arguments);
        }

        @Override
        public CompletableFuture<Void> releaseExport(String node, String key) {
            ExportedObjects there = engineOf(node);
            if (there != null) {
                there.release(key);
            }
            return CompletableFuture.completedFuture(null);
        }
    }

    @BeforeEach
    void start() throws Exception {
        nodeA = new TestEngine("node-a");
        nodeB = new TestEngine("node-b");
        var bundle = Bundles.of(Map.of("index.js", SOURCE), Map.of(), Map.of("OWNER", "Owner"));
        LoadedScript onA = nodeA.load(bundle);
        cellsB = new HostedCells(nodeB.vertx, nodeB.load(bundle));
        link = new Link();
        cellsB.exportRoute(link);
        workerHost = new SerialHost("worker-node-a", link, null);
        worker = workerHost.executor().submit(() -> onA.newWorker(workerHost)).get();
    }

    @AfterEach
    void stop() throws Exception {
        workerHost.executor().submit(worker::close).get();
        workerHost.close();
        cellsB.close();
        nodeA.close();
        nodeB.close();
    }

    @Test
    void aWorkerOnOneNodeCallsAnRpcTargetLivingOnAnother() throws Exception {
        assertThat(get("/remote-target")).isEqualTo("[2,7]");
        assertThat(link.exportCalls.get()).as("each call delivered once, none sent again").isEqualTo(2);
        awaitDisposed("a");
        assertThat(get("/pipelined")).isEqualTo("11");
    }

    @Test
    void callbacksRunOnTheWorkersNode() throws Exception {
        assertThat(get("/callback")).isEqualTo("\"worker on node-a got b\"");
        assertThat(get("/target-callback")).isEqualTo("42");
    }

    @Test
    void aStubForwardedThroughAThirdObjectStillReachesItsObject() throws Exception {
        assertThat(get("/forwarded")).isEqualTo("4");
    }

    @Test
    void whatTheRequestHeldIsReleasedOnTheOtherNodeWhenItEnds() throws Exception {
        assertThat(get("/leave")).isEqualTo("\"left\"");
        awaitDisposed("left");
        for (int i = 0; i < 100 && (nodeA.engine.rpcExports().liveExports() > 0 || nodeB.engine.rpcExports().liveExports() > 0); i++) {
            Thread.sleep(50);
        }
        assertThat(nodeA.engine.rpcExports().liveExports()).as("relays left on node-a").isZero();
        assertThat(nodeB.engine.rpcExports().liveExports()).as("objects left on node-b").isZero();
        assertThat(nodeB.engine.rpcExports().liveRefs()).as("stubs left on node-b").isZero();
    }

    @Test
    void anUnreachableNodeFailsTheCallAtOnceWithAClearError() throws Exception {
        link.nodeBReachable = false;
        long t0 = System.nanoTime();
        assertThat(get("/remote-target")).isEqualTo("[\"error\",\"Error\",\"node node-b is unreachable\"]");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(10_000);
    }

    private void awaitDisposed(String tag) throws Exception {
        String disposed = "";
        for (int i = 0; i < 100 && !disposed.contains("\"" + tag + "\""); i++) {
            Thread.sleep(50);
            disposed = get("/disposed");
        }
        assertThat(disposed).as("[Symbol.dispose]() ran on node-b").contains("\"" + tag + "\"");
    }

    private String get(String path) throws Exception {
        HttpRequestData req = new HttpRequestData("GET", "http://x.test" + path, List.of(), Body.EMPTY, "t" + path);
        HttpResponseData r = CompletableFuture.supplyAsync(() -> worker.fetch(req), workerHost.executor()).thenCompose(f -> f)
                .get(30, TimeUnit.SECONDS);
        return Responses.text(r);
    }
}
