package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.CellInstance;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.js.graal.instance.JsException;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.MemoryStorage;
import dev.cellgate.js.graal.support.SerialHost;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Durable Object instances through the SPI: construction, storage wiring, alarms, RPC errors. */
class CellTest {
    static final String HEX = "a".repeat(64);
    static final String SOURCE = """
            import { DurableObject } from 'cloudflare:workers';
            export class Store extends DurableObject {
              async fetch(req) {
                const s = this.ctx.storage;
                await s.put('k', { when: new Date(7), tags: new Set(['x']) });
                await s.put({ a: 1, b: 2, c: 3 });
                const one = await s.get('k');
                const many = await s.get(['a', 'b', 'zz']);
                const listed = await s.list({ start: 'a', end: 'c' });
                const deleted = await s.delete(['a', 'nope']);
                let sqlError;
                try { s.sql.exec('SELECT 1'); } catch (e) { sqlError = e.message; }
                await s.setAlarm(12345);
                return Response.json({ id: this.ctx.id.toString(), when: one.when.getTime(), tags: [...one.tags], many: [...many],
                  listed: [...listed.keys()], deleted, sqlError, alarm: await s.getAlarm(), undef: await s.get('gone') });
              }
              async alarm(info) { this.alarmInfo = info; if (info.retryCount > 0) throw new Error('alarm failed on retry'); }
              async lastAlarm() { return this.alarmInfo; }
            }
            export class Broken { constructor() { throw new SyntaxError('cannot construct'); } }
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

    static <T> T on(SerialHost host, Callable<CompletableFuture<T>> op) throws Exception {
        return host.executor().submit(op).get().get(30, TimeUnit.SECONDS);
    }

    @Test
    void storageAlarmsAndRpcThroughTheSpi() throws Exception {
        MemoryStorage storage = new MemoryStorage();
        try (SerialHost host = new SerialHost("cell", null, storage)) {
            CellInstance cell = host.executor().submit(() -> script.newCell("Store", new CellIdentity("Store", HEX, null), host)).get();
            String body = dev.cellgate.js.graal.support.Responses.text(on(host, () -> cell.fetch(
                    new dev.cellgate.core.spi.js.HttpRequestData("GET", "http://do/", java.util.List.of(), dev.cellgate.core.spi.js.Body.EMPTY, "r"))));
            assertThat(body).isEqualTo("{\"id\":\"" + HEX + "\",\"when\":7,\"tags\":[\"x\"],\"many\":[[\"a\",1],[\"b\",2]],"
                    + "\"listed\":[\"a\",\"b\"],\"deleted\":1,\"sqlError\":\"SQL is not available in the engine tests' memory storage\","
                    + "\"alarm\":12345}");
            assertThat(storage.getAlarm()).hasValue(12345);
            on(host, () -> cell.alarm(0, false));
            assertThatThrownBy(() -> on(host, () -> cell.alarm(1, true)))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(JsException.class).hasMessage("Error: alarm failed on retry");
            assertThat(host.executor().submit(cell::eventsInFlight).get()).isZero();
            host.executor().submit(cell::close).get();
        }
    }

    @Test
    void aThrowingConstructorRefusesTheCell() throws Exception {
        try (SerialHost host = new SerialHost("broken", null, new MemoryStorage())) {
            assertThatThrownBy(() -> host.executor().submit(() -> script.newCell("Broken", new CellIdentity("Broken", HEX, null), host)).get())
                    .cause().isInstanceOf(ScriptLoadException.class).hasMessageContaining("SyntaxError: cannot construct");
        }
    }

    @Test
    void rpcToAMissingMethodRejectsWithATypeError() throws Exception {
        try (TestWorker w = engine.worker(Bundles.of(Map.of("index.js", SOURCE + """
                export const probe = 1;
                """.replace("export const probe = 1;", "")), Map.of(), Map.of("STORE", "Store")))) {
            // Through the worker's stub: the callee's refusal comes back as the caller's rejected promise.
            TestWorker rpc = engine.worker(Bundles.of(Map.of("index.js", SOURCE.replace("export default { fetch() { return new Response('worker'); } };", """
                    export default { async fetch(req, env) {
                      const stub = env.STORE.getByName('x');
                      try { await stub.nope(1); return new Response('no error'); } catch (e) { return new Response(e.name + ': ' + e.message); }
                    } };""")), Map.of(), Map.of("STORE", "Store")));
            try (rpc) {
                assertThat(rpc.text("http://x.test/")).isEqualTo("TypeError: The RPC receiver does not implement the method \"nope\".");
            }
            assertThat(w.text("http://x.test/")).isEqualTo("worker");
        }
    }
}
