package dev.cellgate.gateway.peer;

import dev.cellgate.core.cell.Cells;
import dev.cellgate.core.fleet.PeerSignature.Envelope;
import dev.cellgate.core.fleet.PeerSignature.Signed;
import dev.cellgate.core.logic.Scopes;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.ExportedObjects;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.time.Ticker;
import dev.cellgate.gateway.http.Json;
import dev.cellgate.gateway.trace.NodeTracing;
import dev.cellgate.gateway.trace.OpenSpan;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving half of the peer protocol on the internal listener: authenticated cell calls
 * forwarded by other nodes, answered from this node's cells only (never forwarded again, so a
 * stale view can never make two nodes bounce a call forever). The head is authenticated before a
 * byte of the body is read (a stranger cannot make this node buffer a body); every answer after
 * that is signed ({@link PeerAnswer}).
 */
public final class PeerRoutes {
    private static final Logger LOG = LoggerFactory.getLogger(PeerRoutes.class);

    private final Supplier<PeerAuth> auth;
    private final String self;
    private final Cells cells;
    private final BooleanSupplier draining;
    private final Supplier<JsonObject> load;
    private final long maxBody;
    /** Judges each request's signed timestamp (±30 s of this clock, SPEC §6) and its nonce's window. */
    private final Ticker wall;
    private final NonceWindow nonces = new NonceWindow(2 * PeerAuth.SKEW_MS + 5_000);
    private volatile ExportedObjects exports;
    private volatile NodeTracing tracing = NodeTracing.off();

    public PeerRoutes(Supplier<PeerAuth> auth, String self, Cells cells, BooleanSupplier draining, Supplier<JsonObject> load, long maxBody,
                      Ticker wall) {
        this.auth = auth;
        this.self = self;
        this.cells = cells;
        this.draining = draining;
        this.load = load;
        this.maxBody = maxBody;
        this.wall = wall;
    }

    /** The engine's objects passed by reference over JS RPC; without it the export routes refuse every call. */
    public PeerRoutes exports(ExportedObjects objects) {
        this.exports = objects;
        return this;
    }

    /** Traces each forwarded fetch (a SERVER span continuing the sender's signed traceparent); off by default. */
    public PeerRoutes tracing(NodeTracing t) {
        this.tracing = t;
        return this;
    }

    public void mount(Router r) {
        r.post(PeerWire.PREFIX + "export/call").handler(ctx -> authenticated(ctx, this::exportCall));
        r.post(PeerWire.PREFIX + "export/release").handler(ctx -> authenticated(ctx, this::exportRelease));
        r.post(PeerWire.PREFIX + "fetch/:scope").handler(ctx -> authenticated(ctx, this::fetch));
        r.post(PeerWire.PREFIX + "call/:scope").handler(ctx -> authenticated(ctx, this::call));
        r.post(PeerWire.PREFIX + "wake/:scope").handler(ctx -> authenticated(ctx, this::wake));
        r.get(PeerWire.PREFIX + "probe").handler(ctx -> authenticated(ctx, in -> in.answer().json(200,
                new JsonObject().put("node", self).put("protocol", PeerAuth.VERSION).put("draining", draining.getAsBoolean())
                        .put("load", load.get()))));
    }

    /** An authenticated request with its verified body, and the signed answer to give it. */
    record Inbound(RoutingContext ctx, String scope, byte[] body, Envelope envelope, PeerAnswer answer) {
    }

    private interface Handler {
        void handle(Inbound in);
    }

    private void authenticated(RoutingContext ctx, Handler next) {
        HttpServerRequest req = ctx.request();
        req.pause();
        PeerAuth a = auth.get();
        Signed got = PeerWire.signedOf(req::getHeader);
        Envelope envelope = PeerWire.envelopeOf(req::getHeader);
        PeerAuth.Refusal no = a == null ? new PeerAuth.Refusal(503, "fleet key not loaded yet")
                : a.verifyHead(req.method().name(), req.uri(), got, envelope, self, wall.nowMs(), nonces);
        if (no != null) {
            LOG.atWarn().setMessage("peer.refused").addKeyValue("status", no.status()).addKeyValue("reason", no.reason())
                    .addKeyValue("source", String.valueOf(got.source())).addKeyValue("remote", String.valueOf(req.remoteAddress())).log();
            refuseUnread(ctx, no.status(), Json.error(no.reason()));
            return;
        }
        PeerAnswer answer = new PeerAnswer(a, got.nonce(), ctx.response());
        String declared = req.getHeader("content-length");
        if (declared != null && declared.matches("\\d{1,18}") && Long.parseLong(declared) > maxBody) {
            closeAfter(ctx);
            answer.refuse(413, "body over " + maxBody + " bytes");
            return;
        }
        String scope = ctx.pathParam("scope");
        if (scope != null && !Scopes.isValid(scope)) {
            closeAfter(ctx);
            answer.refuse(400, "invalid cell scope '" + scope + "'");
            return;
        }
        Context vctx = Vertx.currentContext();
        HashedBody.read(req, maxBody).whenComplete((body, e) -> vctx.runOnContext(v -> {
            if (e instanceof HashedBody.TooLarge) {
                closeAfter(ctx);
                answer.refuse(413, e.getMessage());
            } else if (e != null) {
                answer.refuse(400, "could not read the body: " + e.getMessage());
            } else if (!PeerAuth.bodyMatches(got, body.sha256())) {
                answer.refuse(401, "body does not match its signed digest");
            } else {
                next.handle(new Inbound(ctx, scope, body.bytes(), envelope, answer));
            }
        }));
    }

    /**
     * A refusal before the body: answered at once, unsigned (the request is not authenticated),
     * with {@code Connection: close}; what the client still sends is read and dropped, never kept.
     */
    static void refuseUnread(RoutingContext ctx, int status, JsonObject body) {
        HttpServerRequest req = ctx.request();
        closeAfter(ctx);
        req.handler(ignored -> { });
        req.resume();
        Json.send(ctx.response(), status, body);
    }

    /** The connection closes after this answer: the rest of an unread body is not worth reading. */
    private static void closeAfter(RoutingContext ctx) {
        ctx.response().putHeader("connection", "close");
    }

    private void fetch(Inbound in) {
        HttpServerRequest req = in.ctx().request();
        CellIdentity id = identity(in.scope(), req.getParam("name"));
        Envelope e = in.envelope();
        HttpRequestData data = new HttpRequestData(e.method(), e.url(), PeerWire.decodeHeaders(e.headers()), Body.of(in.body()),
                e.requestId().isEmpty() ? null : e.requestId());
        if (refuseWhenDraining(in)) {
            return;
        }
        Context vctx = Vertx.currentContext();
        OpenSpan span = tracing.serve("peer fetch", req.method().name(), req.path(), data.requestId(), req.getParam(PeerWire.P_TRACEPARENT));
        cells.fetch(id, data).whenComplete((resp, err) -> vctx.runOnContext(v -> {
            span.end(resp == null ? 0 : resp.status(), err);
            if (err != null) {
                in.answer().failure(err);
            } else {
                writeOk(in.answer(), vctx, resp);
            }
        }));
    }

    private void call(Inbound in) {
        CellIdentity id = identity(in.scope(), in.ctx().request().getParam("name"));
        String method = in.ctx().request().getParam("method");
        if (method == null || method.isEmpty()) {
            in.answer().refuse(400, "missing method");
            return;
        }
        if (refuseWhenDraining(in)) {
            return;
        }
        Context vctx = Vertx.currentContext();
        cells.call(id, method, in.body()).whenComplete((result, e) -> vctx.runOnContext(v -> {
            if (e != null) {
                in.answer().failure(e);
            } else {
                in.answer().send(200, PeerAnswer.result(PeerWire.OK).add("content-type", "application/octet-stream"), result);
            }
        }));
    }

    /**
     * A call on an object this node exported over JS RPC. Not refused while draining: the object
     * answers until its Durable Object's context is dropped, and then every call on it is refused
     * with the reason. A key this node does not hold gets a signed "unavailable" (not retryable)
     * saying why (released, its Durable Object evicted, moved or reset, or minted before a restart).
     */
    private void exportCall(Inbound in) {
        HttpServerRequest req = in.ctx().request();
        String key = exportKey(in);
        if (key == null) {
            return;
        }
        String op = req.getParam(PeerWire.P_OP);
        String path = req.getParam(PeerWire.P_PATH);
        if (!"call".equals(op) && !"get".equals(op)) {
            in.answer().refuse(400, PeerWire.P_OP + " must be 'call' or 'get', got '" + op + "'");
            return;
        }
        if (!isNamePath(path)) {
            in.answer().refuse(400, PeerWire.P_PATH + " must be a JSON array of names, got '" + path + "'");
            return;
        }
        Context vctx = Vertx.currentContext();
        exports.call(key, op, path, in.body()).whenComplete((result, e) -> vctx.runOnContext(v -> {
            if (e != null) {
                in.answer().failure(e);
            } else {
                in.answer().send(200, PeerAnswer.result(PeerWire.OK).add("content-type", "application/octet-stream"), result);
            }
        }));
    }

    /** The holder on another node disposed its stub (idempotent: a key already gone is fine). */
    private void exportRelease(Inbound in) {
        String key = exportKey(in);
        if (key != null) {
            exports.release(key);
            in.answer().send(200, PeerAnswer.result(PeerWire.OK), new byte[0]);
        }
    }

    /** The request's key when it names an object of this node; otherwise the refusal is sent and null returned. */
    private String exportKey(Inbound in) {
        String key = in.ctx().request().getParam(PeerWire.P_KEY);
        if (exports == null) {
            in.answer().refuse(404, "this node's engine passes no objects by reference");
            return null;
        }
        if (key == null || key.isEmpty()) {
            in.answer().refuse(400, "missing " + PeerWire.P_KEY);
            return null;
        }
        String node = ExportedObjects.nodeOf(key);
        if (!self.equals(node)) {
            in.answer().refuse(400, "key '" + key + "' names an object of node '" + node + "', this is " + self);
            return null;
        }
        return key;
    }

    private static boolean isNamePath(String json) {
        if (json == null) {
            return false;
        }
        try {
            for (Object o : new JsonArray(json)) {
                if (!(o instanceof String)) {
                    return false;
                }
            }
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * The waker's call: the entry it names ({@code ?entry_minute_ms=}, covered by the request MAC
     * as part of the path) is judged here, and the verdict goes back in the signed answer's body.
     */
    private void wake(Inbound in) {
        if (refuseWhenDraining(in)) {
            return;
        }
        OptionalLong entry;
        try {
            entry = WakeAnswer.entry(in.ctx().request().getParam(WakeAnswer.ENTRY_PARAM));
        } catch (IllegalArgumentException e) {
            in.answer().refuse(400, e.getMessage());
            return;
        }
        Context vctx = Vertx.currentContext();
        // the name (a handoff's poke sends it) becomes the instance's ctx.id.name, as a request's would
        cells.wake(identity(in.scope(), in.ctx().request().getParam("name")), entry).whenComplete((v, e) -> vctx.runOnContext(x -> {
            if (e != null) {
                in.answer().failure(e);
            } else {
                in.answer().send(200, PeerAnswer.result(PeerWire.OK).add("content-type", "application/json"),
                        WakeAnswer.encode(v).getBytes(StandardCharsets.UTF_8));
            }
        }));
    }

    /** A draining node takes no new work: the caller re-resolves (the cell is being handed off). */
    private boolean refuseWhenDraining(Inbound in) {
        if (!draining.getAsBoolean()) {
            return false;
        }
        in.answer().draining("node " + self + " is draining");
        return true;
    }

    static CellIdentity identity(String scope, String name) {
        return new CellIdentity(Scopes.className(scope), Scopes.hexId(scope), name);
    }

    /** The cell's response: its envelope in headers, its body whole or streamed, signed either way. */
    static void writeOk(PeerAnswer answer, Context vctx, HttpResponseData r) {
        MultiMap h = okHeaders(r);
        switch (r.body()) {
            case Body.Empty e -> answer.send(r.status(), h, new byte[0]);
            case Body.Bytes b -> answer.send(r.status(), h, b.data());
            case Body.Stream s -> answer.stream(r.status(), h, s.publisher(), vctx);
        }
    }

    /** The result and envelope headers of a cell's response. */
    static MultiMap okHeaders(HttpResponseData r) {
        MultiMap h = PeerAnswer.result(PeerWire.OK).add(PeerWire.H_HEADERS, PeerWire.encodeHeaders(r.headers()));
        if (r.statusText() != null && !r.statusText().isEmpty()) {
            h.add(PeerWire.H_STATUS_TEXT, r.statusText());
        }
        return h;
    }
}
