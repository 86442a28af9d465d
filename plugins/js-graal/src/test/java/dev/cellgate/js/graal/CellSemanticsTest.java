package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.CellInstance;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.HostedCells;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.SqliteHost;
import dev.cellgate.js.graal.support.TestEngine;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Durable Object semantics the differential harness cannot show (workerd's 30 s timeout, the
 * engine's in-flight count, compatibility dates) or that need the instance itself, on real SQLite.
 */
class CellSemanticsTest {
    static final String SOURCE = """
            import { DurableObject } from 'cloudflare:workers';
            const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
            export class C extends DurableObject {
              constructor(ctx, env) { super(ctx, env); this.log = ['ctor']; }
              async alarm() {}
              async fetch(req) {
                const s = this.ctx.storage;
                switch (new URL(req.url).pathname) {
                  case '/wait': this.ctx.waitUntil(sleep(3000).then(() => s.put('late', 1))); return new Response('answered');
                  case '/late': return new Response(String(await s.get('late')));
                  case '/hold': this.log.push('hold'); await this.ctx.blockConcurrencyWhile(() => sleep(60000)); return new Response('held');
                  case '/log': this.log.push('log'); return Response.json(this.log);
                  case '/txn': {
                    let error;
                    await s.put('warm', 0); // the KV table exists before the rollback (a runtime-core bug otherwise)
                    try { await s.transaction(async (t) => { await t.put('t', 1); await sleep(20); await t.put('t2', 2); }); } catch (e) { error = e.message; }
                    return Response.json({ error: error.slice(0, 40), t: await s.get('t') ?? null, t2: await s.get('t2') ?? null });
                  }
                  case '/delete-all': {
                    await s.setAlarm(Date.now() + 3600000); await s.put('k', 1); await s.deleteAll();
                    return Response.json({ alarm: await s.getAlarm(), keys: [...(await s.list()).keys()] });
                  }
                }
                return new Response('no route', { status: 404 });
              }
            }
            export default { async fetch(req, env) {
              const stub = env.C.getByName(new URL(req.url).searchParams.get('name'));
              const path = new URL(req.url).pathname;
              if (path === '/timeout') {
                await stub.fetch('http://do/warm'); // resident first: events then arrive in the order sent
                const held = stub.fetch('http://do/hold').then((r) => r.text(), (e) => e.name + ': ' + e.message);
                const queued = stub.fetch('http://do/log').then((r) => r.text(), (e) => e.name + ': ' + e.message);
                return Response.json({ held: await held, queued: await queued, after: await (await stub.fetch('http://do/log')).json() });
              }
              return stub.fetch('http://do' + path);
            } };
            """;

    static TestEngine engine;
    static TestEngine impatient;

    @BeforeAll
    static void start() {
        engine = new TestEngine();
        // blockConcurrencyWhile may hold the gate 1 s here (Cloudflare: 30 s).
        impatient = new TestEngine(new JsLimits(30_000, JsLimits.defaultAllocationLimit(), 10, 1000));
    }

    @AfterAll
    static void stop() {
        engine.close();
        impatient.close();
    }

    static ScriptBundle bundle(String compatibilityDate) {
        ScriptBundle b = Bundles.of(Map.of("index.js", SOURCE), Map.of(), Map.of("C", "C"));
        return new ScriptBundle(b.deploymentId(), b.scriptName(), b.mainModule(), b.modules(), b.vars(), b.durableObjects(),
                compatibilityDate, List.of());
    }

    static String get(CellInstance cell, SqliteHost host, String path) throws Exception {
        var f = host.on(() -> cell.fetch(new HttpRequestData("GET", "http://do" + path, List.of(), Body.EMPTY, path)));
        return Responses.text(f.get(30, TimeUnit.SECONDS));
    }

    @Test
    void waitUntilKeepsTheEventInFlightUntilItSettles() throws Exception {
        LoadedScript script = engine.load(bundle("2025-01-01"));
        try (SqliteHost host = new SqliteHost()) {
            CellInstance cell = host.on(() -> script.newCell("C", new CellIdentity("C", "b".repeat(64), "w"), host));
            assertThat(get(cell, host, "/wait")).isEqualTo("answered");
            assertThat(host.on(cell::eventsInFlight)).as("the waitUntil promise is still pending").isEqualTo(1);
            for (int i = 0; i < 500 && host.on(cell::eventsInFlight) > 0; i++) {
                Thread.sleep(20);
            }
            assertThat(host.on(cell::eventsInFlight)).isZero();
            assertThat(get(cell, host, "/late")).isEqualTo("1");
            host.on(() -> {
                cell.close();
                return null;
            });
        }
    }

    @Test
    void aTransactionLeftOpenAcrossIoIsRolledBackBeforeTheTurnCommits() throws Exception {
        LoadedScript script = engine.load(bundle("2025-01-01"));
        try (SqliteHost host = new SqliteHost()) {
            CellInstance cell = host.on(() -> script.newCell("C", new CellIdentity("C", "c".repeat(64), "t"), host));
            assertThat(new JsonObject(get(cell, host, "/txn")).getMap())
                    .containsEntry("error", "storage.transaction(): the callback was ").containsEntry("t", null).containsEntry("t2", null);
            assertThat(host.commitFailures()).as("no turn ended with an open transaction").isEmpty();
            host.on(() -> {
                cell.close();
                return null;
            });
        }
    }

    @Test
    void deleteAllDeletesTheAlarmFromCompatibilityDate20260224() throws Exception {
        for (String date : List.of("2026-02-23", "2026-02-24")) {
            LoadedScript script = engine.load(bundle(date));
            try (SqliteHost host = new SqliteHost()) {
                CellInstance cell = host.on(() -> script.newCell("C", new CellIdentity("C", "d".repeat(64), "d"), host));
                JsonObject r = new JsonObject(get(cell, host, "/delete-all"));
                assertThat(r.getJsonArray("keys")).isEmpty();
                assertThat(r.getValue("alarm") == null).as("alarm deleted at " + date).isEqualTo(date.equals("2026-02-24"));
                host.on(() -> {
                    cell.close();
                    return null;
                });
            }
        }
    }

    @Test
    void aBlockConcurrencyWhileHeldTooLongResetsTheObject() throws Exception {
        LoadedScript script = impatient.load(bundle("2025-01-01"));
        try (HostedCells cells = new HostedCells(impatient.vertx, script); HostedCells.Worker worker = cells.worker()) {
            var r = worker.send(new HttpRequestData("GET", "http://x.test/timeout?name=slow", List.of(), Body.EMPTY, "t")).get(30, TimeUnit.SECONDS);
            JsonObject out = new JsonObject(Responses.text(r));
            String expected = "Error: A call to blockConcurrencyWhile() in a Durable Object waited for too long. "
                    + "The call was canceled and the Durable Object was reset.";
            assertThat(out.getString("held")).isEqualTo(expected);
            assertThat(out.getString("queued")).isEqualTo(expected);
            assertThat(out.getJsonArray("after").getList()).as("constructed again (the held log is gone)").containsExactly("ctor", "log");
        }
    }
}
