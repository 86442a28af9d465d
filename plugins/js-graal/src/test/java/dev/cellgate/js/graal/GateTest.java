package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.HostedCells;
import dev.cellgate.js.graal.support.Responses;
import dev.cellgate.js.graal.support.TestEngine;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Input gates and {@code blockConcurrencyWhile} on the real cell host ({@link HostedCells}: real
 * SQLite, a turn commit after every task). Each property runs twice: with the gates, where it must
 * hold, and on the negative control engine without them ({@code Gates.OFF_FOR_NEGATIVE_CONTROL}),
 * where the same check must see it broken — so the checks can fail.
 */
class GateTest {
    static final String SOURCE = """
            import { DurableObject } from 'cloudflare:workers';
            const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
            export class G extends DurableObject {
              constructor(ctx, env) {
                super(ctx, env);
                this.log = ['ctor'];
                if (ctx.id.name.startsWith('ctor')) {
                  ctx.blockConcurrencyWhile(async () => { await sleep(150); this.ready = true; this.log.push('ctor-done'); });
                }
              }
              async hold(ms) { this.log.push('hold-start'); await this.ctx.blockConcurrencyWhile(async () => { await sleep(ms); this.log.push('hold-end'); }); }
              async note(tag) { this.log.push(tag); return this.ready === true; }
              async later(tag, ms) { this.log.push(tag + '-start'); await sleep(ms); this.log.push(tag + '-end'); }
              async armAlarm(ms) { await this.ctx.storage.setAlarm(Date.now() + ms); }
              async alarm() { this.log.push('alarm'); }
              async incr() { const n = (await this.ctx.storage.get('n')) ?? 0; await this.ctx.storage.put('n', n + 1); }
              async count() { return (await this.ctx.storage.get('n')) ?? 0; }
              async getLog() { return this.log; }
            }
            const sleep2 = sleep;
            const scenarios = {
              async ctor(env) {
                const stub = env.G.getByName('ctor-' + Math.random());
                const results = await Promise.all([stub.note('a'), stub.note('b'), stub.note('c')]);
                return { results, log: await stub.getLog() };
              },
              async hold(env) {
                const stub = env.G.getByName('hold-' + Math.random());
                await stub.note('warm');
                await stub.armAlarm(200);
                const h = stub.hold(800);
                await sleep2(100);
                await Promise.all([h, stub.note('rpc')]);
                for (let i = 0; i < 50 && !(await stub.getLog()).includes('alarm'); i++) await sleep2(50);
                return { log: await stub.getLog() };
              },
              async continuation(env) {
                const stub = env.G.getByName('cont-' + Math.random());
                await stub.note('warm');
                const a = stub.later('a', 300);
                await sleep2(30);
                await Promise.all([a, stub.hold(800)]);
                return { log: await stub.getLog() };
              },
              async increments(env) {
                const stub = env.G.getByName('incr-' + Math.random());
                await Promise.all(Array.from({ length: 30 }, () => stub.incr()));
                return { count: await stub.count() };
              },
            };
            export default { async fetch(req, env) { return Response.json(await scenarios[new URL(req.url).pathname.slice(1)](env)); } };
            """;

    static TestEngine gated;
    static TestEngine ungated;

    @BeforeAll
    static void start() {
        gated = new TestEngine();
        ungated = new TestEngine(new JsLimits(30_000, JsLimits.defaultAllocationLimit(), 10), GraalJsEngine.Gates.OFF_FOR_NEGATIVE_CONTROL);
    }

    @AfterAll
    static void stop() {
        gated.close();
        ungated.close();
    }

    static JsonObject run(TestEngine engine, String scenario) throws Exception {
        LoadedScript script = engine.load(Bundles.of(Map.of("index.js", SOURCE), Map.of(), Map.of("G", "G")));
        try (HostedCells cells = new HostedCells(engine.vertx, script); HostedCells.Worker worker = cells.worker()) {
            var r = worker.send(new dev.cellgate.core.spi.js.HttpRequestData("GET", "http://gate.test/" + scenario, List.of(),
                    dev.cellgate.core.spi.js.Body.EMPTY, scenario)).get(60, TimeUnit.SECONDS);
            return new JsonObject(Responses.text(r));
        }
    }

    /** The events logged strictly between two entries of the log. */
    static List<Object> between(JsonArray log, String from, String to) {
        List<Object> l = log.getList();
        int a = l.indexOf(from);
        int b = l.indexOf(to);
        assertThat(a).as(from + " in " + l).isGreaterThanOrEqualTo(0);
        assertThat(b).as(to + " in " + l).isGreaterThan(a);
        return l.subList(a + 1, b);
    }

    @Test
    void constructorBlockConcurrencyHoldsTheFirstEvents() throws Exception {
        JsonObject r = run(gated, "ctor");
        assertThat(r.getJsonArray("results").getList()).containsExactly(true, true, true);
        List<Object> log = r.getJsonArray("log").getList();
        assertThat(log.subList(0, 2)).containsExactly("ctor", "ctor-done");
        // Order among the three: the host hands events waiting for one activation over in any order.
        assertThat(log.subList(2, log.size())).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void constructorBlockConcurrencyNegativeControl() throws Exception {
        JsonObject r = run(ungated, "ctor");
        assertThat(r.getJsonArray("results").getList()).as("without the gate the events run before the constructor's work ends")
                .contains(false);
    }

    @Test
    void blockConcurrencyHoldsRpcAndAlarm() throws Exception {
        JsonArray log = run(gated, "hold").getJsonArray("log");
        assertThat(between(log, "hold-start", "hold-end")).as("nothing runs while blockConcurrencyWhile holds: " + log).isEmpty();
        assertThat(log.getList()).contains("rpc", "alarm");
    }

    @Test
    void blockConcurrencyNegativeControl() throws Exception {
        JsonArray log = run(ungated, "hold").getJsonArray("log");
        assertThat(between(log, "hold-start", "hold-end")).as("without the gate an RPC or the alarm runs inside the hold: " + log)
                .isNotEmpty();
    }

    @Test
    void continuationsOfOtherEventsWaitForTheGate() throws Exception {
        JsonArray log = run(gated, "continuation").getJsonArray("log");
        assertThat(between(log, "hold-start", "hold-end")).as("a timer of another event waits for the gate: " + log).doesNotContain("a-end");
    }

    @Test
    void continuationsNegativeControl() throws Exception {
        JsonArray log = run(ungated, "continuation").getJsonArray("log");
        assertThat(between(log, "hold-start", "hold-end")).as("without the gate the other event's timer runs inside the hold: " + log)
                .contains("a-end");
    }

    @Test
    void storageCallsDoNotLetEventsInterleave() throws Exception {
        assertThat(run(gated, "increments").getInteger("count")).as("30 concurrent read-modify-write increments").isEqualTo(30);
    }

    @Test
    void storageNegativeControlLosesUpdates() throws Exception {
        assertThat(run(ungated, "increments").getInteger("count"))
                .as("storage promises settling in a later turn let increments interleave and lose updates").isLessThan(30);
    }
}
