package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.OwnershipRecord;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.WsFrame;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.EndClient;
import dev.cellgate.js.graal.support.HeldReplicator;
import dev.cellgate.js.graal.support.HostedCells;
import dev.cellgate.js.graal.support.TestEngine;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * WebSockets on the real cell host (runtime-core {@code Cells}) with GraalJS: hibernation (the
 * idle cell drops its instance, sockets and attachments stay, the next message constructs it
 * again in the same epoch), auto-responses without waking, non-hibernatable sockets keeping a
 * cell resident, 1012 on release, and the output gate holding frames that follow a write.
 */
class WebSocketHostTest {
    static final String SOURCE = """
            import { DurableObject } from 'cloudflare:workers';
            export class Room extends DurableObject {
              constructor(ctx, env) {
                super(ctx, env);
                ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER)');
                this.constructions = ctx.storage.sql.exec(
                  "INSERT INTO meta VALUES ('constructed', 1) ON CONFLICT(k) DO UPDATE SET v = v + 1 RETURNING v").one().v;
                ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'));
              }
              async fetch(req) {
                const url = new URL(req.url);
                const [client, server] = Object.values(new WebSocketPair());
                if (url.searchParams.get('plain')) {
                  server.accept();
                  server.addEventListener('message', (e) => server.send('plain ' + e.data));
                } else if (url.searchParams.get('early')) {
                  // the attachment is set BEFORE the socket becomes hibernatable (SPEC §16)
                  server.serializeAttachment({ name: url.searchParams.get('name') });
                  this.ctx.acceptWebSocket(server, [url.searchParams.get('name')]);
                } else {
                  this.ctx.acceptWebSocket(server, [url.searchParams.get('name')]);
                  server.serializeAttachment({ name: url.searchParams.get('name') });
                }
                return new Response(null, { status: 101, webSocket: client });
              }
              webSocketMessage(ws, msg) {
                if (msg === 'write') {
                  this.ctx.storage.sql.exec("INSERT INTO meta VALUES ('w', 1) ON CONFLICT(k) DO UPDATE SET v = v + 1");
                  ws.send('written');
                  return;
                }
                ws.send(ws.deserializeAttachment().name + ':' + msg + ':' + this.constructions + ':' + this.ctx.getWebSockets().length);
              }
            }
            export default {
              fetch(req, env) {
                return env.ROOM.getByName('lobby').fetch(req);
              }
            };
            """;

    static TestEngine engine;
    static LoadedScript script;

    @BeforeAll
    static void start() throws Exception {
        engine = new TestEngine();
        script = engine.load(Bundles.of(Map.of("index.js", SOURCE), Map.of(), Map.of("ROOM", "Room")));
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    static EndClient connect(HostedCells.Worker worker, String query) throws Exception {
        HttpResponseData r = worker.send(new HttpRequestData("GET", "http://room.test/join?" + query,
                List.of(Map.entry("upgrade", "websocket")), Body.EMPTY, "t")).get(60, TimeUnit.SECONDS);
        assertThat(r.status()).isEqualTo(101);
        assertThat(r.webSocket()).as("the 101 carries the client end").isNotNull();
        return new EndClient(r.webSocket());
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    static long epoch(HostedCells cells, String scope) {
        return OwnershipRecord.decode(cells.bucket().get(Keys.ownership(scope)).join().orElseThrow().bytes()).epoch();
    }

    @Test
    void idleCellHibernatesAndTheNextMessageReconstructsItWithAttachmentsInTheSameEpoch() throws Exception {
        try (HostedCells cells = new HostedCells(engine.vertx, script, 300); HostedCells.Worker worker = cells.worker()) {
            EndClient alice = connect(worker, "name=alice");
            EndClient bob = connect(worker, "name=bob");
            alice.send("hi");
            assertThat(alice.nextText()).isEqualTo("alice:hi:1:2");
            String scope = cells.cells().residentScopes().get(0);
            long epoch = epoch(cells, scope);

            await("hibernation", () -> cells.cells().hibernatedCount() == 1);
            assertThat(cells.cells().hibernatableSockets()).as("sockets stay open on the node").isEqualTo(2);
            bob.send("ping");
            assertThat(bob.nextText()).as("answered by the host").isEqualTo("pong");
            assertThat(cells.cells().hibernatedCount()).as("the auto-response does not wake the cell").isEqualTo(1);

            bob.send("back");
            assertThat(bob.nextText()).as("constructor ran again, attachment kept").isEqualTo("bob:back:2:2");
            assertThat(cells.cells().hibernatedCount()).isZero();
            assertThat(epoch(cells, scope)).as("hibernation keeps ownership: no new epoch").isEqualTo(epoch);
        }
    }

    @Test
    void anAttachmentSetBeforeAcceptWebSocketSurvivesHibernation() throws Exception {
        try (HostedCells cells = new HostedCells(engine.vertx, script, 300); HostedCells.Worker worker = cells.worker()) {
            EndClient carol = connect(worker, "name=carol&early=1");
            carol.send("hi");
            assertThat(carol.nextText()).as("read back before hibernation").isEqualTo("carol:hi:1:1");
            await("hibernation", () -> cells.cells().hibernatedCount() == 1);
            carol.send("back");
            assertThat(carol.nextText()).as("constructor ran again, the early attachment kept").isEqualTo("carol:back:2:1");
        }
    }

    @Test
    void releaseClosesEverySocketWith1012() throws Exception {
        try (HostedCells cells = new HostedCells(engine.vertx, script, 3_600_000); HostedCells.Worker worker = cells.worker()) {
            EndClient hibernatable = connect(worker, "name=h");
            EndClient plain = connect(worker, "plain=1");
            plain.send("x");
            assertThat(plain.nextText()).isEqualTo("plain x");
            String scope = cells.cells().residentScopes().get(0);
            assertThat(cells.cells().release(scope, "test").get(30, TimeUnit.SECONDS)).isTrue();
            assertThat(hibernatable.next(30)).isEqualTo(new WsFrame.Close(1012, "Durable Object moving to another node; reconnect"));
            assertThat(plain.next(30)).isEqualTo(new WsFrame.Close(1012, "Durable Object moving to another node; reconnect"));
        }
    }

    @Test
    void aNonHibernatableSocketKeepsTheCellResident() throws Exception {
        try (HostedCells cells = new HostedCells(engine.vertx, script, 200); HostedCells.Worker worker = cells.worker()) {
            EndClient plain = connect(worker, "plain=1");
            Thread.sleep(2500);
            assertThat(cells.cells().resident()).as("not evicted while the socket is open").isEqualTo(1);
            assertThat(cells.cells().hibernatedCount()).isZero();
            plain.send("still");
            assertThat(plain.nextText()).isEqualTo("plain still");
            plain.send(new WsFrame.Close(1000, "done"));
            await("eviction once the socket closed", () -> cells.cells().resident() == 0);
        }
    }

    @Test
    void aFrameSentAfterAWriteWaitsUntilTheWriteIsDurable() throws Exception {
        assertThat(frameOvertakesDurability(true)).as("gated: the frame waits").isFalse();
    }

    /** The broken variant (CELLD_OUTPUT_GATE=0): the same check sees the frame leave before durability. */
    @Test
    void withoutTheOutputGateTheCheckSeesTheFrameLeaveEarly() throws Exception {
        assertThat(frameOvertakesDurability(false)).as("ungated: the frame leaves at once").isTrue();
    }

    private static boolean frameOvertakesDurability(boolean gate) throws Exception {
        HeldReplicator replicator = new HeldReplicator();
        try (HostedCells cells = new HostedCells(engine.vertx, script, 3_600_000, replicator, gate)) {
            HostedCells.Worker worker = cells.worker();
            replicator.releaseAll(); // a gated 101 waits for the constructor's write
            EndClient c = connectReleasing(worker, replicator);
            c.send("write");
            // Every commit is held now: a frame seen here left before its write could be durable.
            WsFrame early = c.poll(1500);
            replicator.releaseAll();
            WsFrame frame = early != null ? early : c.next(30);
            assertThat(frame).isEqualTo(new WsFrame.Text("written"));
            replicator.stopHolding();
            worker.close();
            return early != null;
        }
    }

    private static EndClient connectReleasing(HostedCells.Worker worker, HeldReplicator replicator) throws Exception {
        var f = worker.send(new HttpRequestData("GET", "http://room.test/join?name=w", List.of(Map.entry("upgrade", "websocket")),
                Body.EMPTY, "t"));
        while (!f.isDone()) {
            replicator.releaseAll();
            Thread.sleep(20);
        }
        return new EndClient(f.get().webSocket());
    }
}
