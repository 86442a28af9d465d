package dev.cellgate.js.graal.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.CellInstance;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.MemoryStorage;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.SerialHost;
import dev.cellgate.js.graal.support.TestEngine;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Durable Object contexts set up ahead (README, "Durable Objects", pooled contexts): a new cell
 * only runs its class's constructor; the module was evaluated before, off the cell's thread.
 */
class CellPoolTest {
    static final String HEX = "b".repeat(64);
    static final String SOURCE = """
            import { DurableObject } from 'cloudflare:workers';
            const evaluatedAt = Date.now();
            let evaluations = 0;
            evaluations++;
            export class Store extends DurableObject {
              constructor(ctx, env) { super(ctx, env); this.constructedAt = Date.now(); }
              async fetch(req) {
                const url = new URL(req.url);
                if (url.pathname === '/break') {
                  await this.ctx.blockConcurrencyWhile(() => Promise.reject(new Error('broken on purpose')));
                }
                const n = (await this.ctx.storage.get('n') ?? 0) + 1;
                await this.ctx.storage.put('n', n);
                return Response.json({ evaluatedAt, constructedAt: this.constructedAt, evaluations, n, id: this.ctx.id.toString() });
              }
            }
            export class Broken { constructor() { throw new TypeError('cannot construct'); } }
            export default { fetch() { return new Response('worker'); } };
            """;

    static TestEngine engine;
    static LoadedScript script;

    @BeforeAll
    static void start() throws Exception {
        engine = new TestEngine();
        script = engine.load(Bundles.of(Map.of("index.js", SOURCE), Map.of(), Map.of("STORE", "Store", "BROKEN", "Broken")));
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    static CellInstance cell(SerialHost host, String className) throws Exception {
        return host.executor().submit(() -> script.newCell(className, new CellIdentity(className, HEX, null), host)).get();
    }

    static JsonObject fetch(SerialHost host, CellInstance cell, String path) throws Exception {
        return new JsonObject(Responses.text(host.executor().submit(() -> cell.fetch(
                new HttpRequestData("GET", "http://do" + path, List.of(), Body.EMPTY, "r"))).get().get(30, TimeUnit.SECONDS)));
    }

    @Test
    void aNewCellFindsItsModuleEvaluatedAlreadyAndServesStorageAndFetch() throws Exception {
        Thread.sleep(1500); // the pool fills meanwhile; the module's clock stops at its evaluation
        MemoryStorage storage = new MemoryStorage();
        try (SerialHost host = new SerialHost("pooled", null, storage)) {
            CellInstance cell = cell(host, "Store");
            JsonObject first = fetch(host, cell, "/");
            // Evaluated ahead (before this cell was asked for), constructed now, in a context of its own.
            assertThat(first.getLong("constructedAt") - first.getLong("evaluatedAt")).isGreaterThanOrEqualTo(1000);
            assertThat(first.getInteger("evaluations")).isEqualTo(1);
            assertThat(first.getString("id")).isEqualTo(HEX);
            assertThat(first.getInteger("n")).isEqualTo(1);
            assertThat(fetch(host, cell, "/").getInteger("n")).isEqualTo(2);
            host.executor().submit(cell::close).get();
        }
    }

    static void awaitPooled(GraalLoadedScript s, int n) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (s.pooledCells() != n && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertThat(s.pooledCells()).isEqualTo(n);
    }

    @Test
    void theNewCellTookAPooledContextAndThePoolRefills() throws Exception {
        GraalLoadedScript s = (GraalLoadedScript) script;
        awaitPooled(s, CellPool.DEFAULT_SIZE);
        dev.cellgate.js.graal.instance.JsInstance next = s.pooledInstances().get(0);
        try (SerialHost host = new SerialHost("taken", null, new MemoryStorage())) {
            CellInstance cell = cell(host, "Store");
            // The oldest pooled context became this cell's (renamed), and left the pool.
            assertThat(next.label()).isEqualTo("cell " + new CellIdentity("Store", HEX, null).scope());
            assertThat(s.pooledInstances()).doesNotContain(next);
            assertThat(fetch(host, cell, "/").getInteger("n")).isEqualTo(1);
            awaitPooled(s, CellPool.DEFAULT_SIZE);
            host.executor().submit(cell::close).get();
        }
    }

    @Test
    void closingTheScriptClosesThePooledContexts() throws Exception {
        GraalLoadedScript other = (GraalLoadedScript) engine.load(Bundles.of(Map.of("index.js", SOURCE), Map.of(), Map.of("STORE", "Store")));
        awaitPooled(other, CellPool.DEFAULT_SIZE);
        List<dev.cellgate.js.graal.instance.JsInstance> pooled = other.pooledInstances();
        assertThat(pooled).hasSize(CellPool.DEFAULT_SIZE).noneMatch(dev.cellgate.js.graal.instance.JsInstance::closed);
        other.close();
        assertThat(pooled).allMatch(dev.cellgate.js.graal.instance.JsInstance::closed);
        Thread.sleep(200);
        assertThat(other.pooledCells()).isZero(); // and none is made afterwards
    }

    @Test
    void aThrowingConstructorInAPooledContextFailsAsBefore() throws Exception {
        try (SerialHost host = new SerialHost("broken", null, new MemoryStorage())) {
            assertThatThrownBy(() -> cell(host, "Broken"))
                    .cause().isInstanceOf(ScriptLoadException.class)
                    .hasMessageStartingWith("constructing Broken for " + new CellIdentity("Broken", HEX, null).scope()
                            + " failed: TypeError: cannot construct");
        }
    }

    @Test
    void aBrokenPooledCellIsConstructedAgainInAFreshContext() throws Exception {
        MemoryStorage storage = new MemoryStorage();
        try (SerialHost host = new SerialHost("reset", null, storage)) {
            CellInstance cell = cell(host, "Store");
            JsonObject before = fetch(host, cell, "/");
            assertThatThrownBy(() -> fetch(host, cell, "/break")).hasMessageContaining("broken on purpose");
            Thread.sleep(20);
            JsonObject after = fetch(host, cell, "/");
            // A full set-up: the module evaluated again in the new context, then the constructor ran.
            assertThat(after.getLong("evaluatedAt")).isGreaterThan(before.getLong("constructedAt"));
            assertThat(after.getLong("constructedAt")).isGreaterThanOrEqualTo(after.getLong("evaluatedAt"));
            assertThat(after.getInteger("evaluations")).isEqualTo(1);
            assertThat(after.getInteger("n")).isEqualTo(2); // storage is kept
            host.executor().submit(cell::close).get();
        }
    }
}
