package dev.cellgate.gateway.peer;

import dev.cellgate.core.cell.Cells;
import dev.cellgate.core.cell.NodeFullException;
import dev.cellgate.core.cell.OwnedElsewhereException;
import dev.cellgate.core.logic.Scopes;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.gateway.http.Json;
import dev.cellgate.gateway.http.body.ResponseBodySubscriber;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving half of the peer protocol on the internal listener: authenticated cell calls
 * forwarded by other nodes, answered from this node's cells only (never forwarded again, so a
 * stale view can never make two nodes bounce a call forever).
 */
public final class PeerRoutes {
    private static final Logger LOG = LoggerFactory.getLogger(PeerRoutes.class);

    private final Supplier<PeerAuth> auth;
    private final String self;
    private final Cells cells;
    private final BooleanSupplier draining;
    private final Supplier<JsonObject> load;
    private final long maxBody;
    private final NonceWindow nonces = new NonceWindow(2 * PeerAuth.SKEW_MS + 5_000);

    public PeerRoutes(Supplier<PeerAuth> auth, String self, Cells cells, BooleanSupplier draining, Supplier<JsonObject> load, long maxBody) {
        this.auth = auth;
        this.self = self;
        this.cells = cells;
        this.draining = draining;
        this.load = load;
        this.maxBody = maxBody;
    }

    public void mount(Router r) {
        r.post(PeerWire.PREFIX + "fetch/:scope").handler(ctx -> authenticated(ctx, (body, scope) -> fetch(ctx, scope, body)));
        r.post(PeerWire.PREFIX + "call/:scope").handler(ctx -> authenticated(ctx, (body, scope) -> call(ctx, scope, body)));
        r.post(PeerWire.PREFIX + "wake/:scope").handler(ctx -> authenticated(ctx, (body, scope) -> wake(ctx, scope)));
        r.get(PeerWire.PREFIX + "probe").handler(ctx -> authenticated(ctx, (body, scope) -> Json.send(ctx.response(), 200,
                new JsonObject().put("node", self).put("protocol", PeerAuth.VERSION).put("draining", draining.getAsBoolean())
                        .put("load", load.get()))));
    }

    private interface Handler {
        void handle(byte[] body, String scope);
    }

    private void authenticated(RoutingContext ctx, Handler next) {
        HttpServerRequest req = ctx.request();
        String declared = req.getHeader("content-length");
        if (declared != null && declared.matches("\\d+") && Long.parseLong(declared) > maxBody) {
            Json.send(ctx.response(), 413, Json.error("body over " + maxBody + " bytes"));
            return;
        }
        req.body().onComplete(ar -> {
            if (ar.failed()) {
                Json.send(ctx.response(), 400, Json.error("could not read the body: " + ar.cause().getMessage()));
                return;
            }
            byte[] body = ar.result().getBytes();
            if (body.length > maxBody) {
                Json.send(ctx.response(), 413, Json.error("body over " + maxBody + " bytes"));
                return;
            }
            PeerAuth a = auth.get();
            PeerAuth.Signed got = new PeerAuth.Signed(req.getHeader(PeerAuth.H_VERSION), req.getHeader(PeerAuth.H_SOURCE),
                    req.getHeader(PeerAuth.H_TARGET), req.getHeader(PeerAuth.H_TS), req.getHeader(PeerAuth.H_NONCE),
                    req.getHeader(PeerAuth.H_BODY), req.getHeader(PeerAuth.H_MAC));
            PeerAuth.Refusal no = a == null ? new PeerAuth.Refusal(503, "fleet key not loaded yet")
                    : a.verify(req.method().name(), req.uri(), body, got, self, System.currentTimeMillis(), nonces);
            if (no != null) {
                LOG.atWarn().setMessage("peer.refused").addKeyValue("status", no.status()).addKeyValue("reason", no.reason())
                        .addKeyValue("source", String.valueOf(got.source())).addKeyValue("remote", String.valueOf(req.remoteAddress())).log();
                Json.send(ctx.response(), no.status(), Json.error(no.reason()));
                return;
            }
            String scope = ctx.pathParam("scope");
            if (scope != null && !Scopes.isValid(scope)) {
                Json.send(ctx.response(), 400, Json.error("invalid cell scope '" + scope + "'"));
                return;
            }
            next.handle(body, scope);
        });
    }

    private void fetch(RoutingContext ctx, String scope, byte[] body) {
        HttpServerRequest req = ctx.request();
        CellIdentity id = identity(scope, req.getParam("name"));
        HttpRequestData data = new HttpRequestData(req.getHeader(PeerWire.H_METHOD), req.getHeader(PeerWire.H_URL),
                PeerWire.decodeHeaders(req.getHeader(PeerWire.H_HEADERS)), Body.of(body), req.getHeader(PeerWire.H_REQUEST_ID));
        Context vctx = Vertx.currentContext();
        if (refuseWhenDraining(ctx)) {
            return;
        }
        cells.fetch(id, data).whenComplete((resp, e) -> vctx.runOnContext(v -> {
            if (e != null) {
                failure(ctx.response(), e);
            } else {
                writeOk(ctx.response(), vctx, resp);
            }
        }));
    }

    private void call(RoutingContext ctx, String scope, byte[] body) {
        CellIdentity id = identity(scope, ctx.request().getParam("name"));
        String method = ctx.request().getParam("method");
        if (method == null || method.isEmpty()) {
            Json.send(ctx.response(), 400, Json.error("missing method"));
            return;
        }
        if (refuseWhenDraining(ctx)) {
            return;
        }
        Context vctx = Vertx.currentContext();
        cells.call(id, method, body).whenComplete((result, e) -> vctx.runOnContext(v -> {
            if (e != null) {
                failure(ctx.response(), e);
            } else {
                ctx.response().putHeader(PeerWire.H_RESULT, PeerWire.OK).putHeader("content-type", "application/octet-stream")
                        .end(Buffer.buffer(result));
            }
        }));
    }

    private void wake(RoutingContext ctx, String scope) {
        if (refuseWhenDraining(ctx)) {
            return;
        }
        java.util.OptionalLong entry;
        try {
            entry = WakeAnswer.entry(ctx.request().getParam(WakeAnswer.ENTRY_PARAM));
        } catch (IllegalArgumentException e) {
            Json.send(ctx.response(), 400, Json.error(e.getMessage()));
            return;
        }
        Context vctx = Vertx.currentContext();
        cells.wake(identity(scope, null), entry).whenComplete((v, e) -> vctx.runOnContext(x -> {
            if (e != null) {
                failure(ctx.response(), e);
            } else {
                ctx.response().putHeader(PeerWire.H_RESULT, PeerWire.OK).putHeader("content-type", "application/json")
                        .end(WakeAnswer.encode(v));
            }
        }));
    }

    /** A draining node takes no new work: the caller re-resolves (the cell is being handed off). */
    private boolean refuseWhenDraining(RoutingContext ctx) {
        if (!draining.getAsBoolean()) {
            return false;
        }
        ctx.response().setStatusCode(503).putHeader(PeerWire.H_RESULT, PeerWire.DRAINING).putHeader("retry-after", "1")
                .end("node " + self + " is draining");
        return true;
    }

    static CellIdentity identity(String scope, String name) {
        return new CellIdentity(Scopes.className(scope), Scopes.hexId(scope), name);
    }

    private void writeOk(HttpServerResponse resp, Context vctx, HttpResponseData r) {
        resp.setStatusCode(r.status()).putHeader(PeerWire.H_RESULT, PeerWire.OK)
                .putHeader(PeerWire.H_HEADERS, PeerWire.encodeHeaders(r.headers()));
        if (r.statusText() != null && !r.statusText().isEmpty()) {
            resp.putHeader(PeerWire.H_STATUS_TEXT, r.statusText());
        }
        switch (r.body()) {
            case Body.Empty e -> resp.end();
            case Body.Bytes b -> resp.end(Buffer.buffer(b.data()));
            case Body.Stream s -> {
                resp.setChunked(true);
                s.publisher().subscribe(new ResponseBodySubscriber(resp, vctx));
            }
        }
    }

    static void failure(HttpServerResponse resp, Throwable e) {
        Throwable c = e;
        while (c instanceof java.util.concurrent.CompletionException && c.getCause() != null) {
            c = c.getCause();
        }
        if (c instanceof OwnedElsewhereException o) {
            resp.setStatusCode(409).putHeader(PeerWire.H_RESULT, PeerWire.NOT_OWNER).putHeader(PeerWire.H_OWNER, o.node()).end(o.getMessage());
        } else if (c instanceof NodeFullException) {
            resp.setStatusCode(503).putHeader(PeerWire.H_RESULT, PeerWire.UNAVAILABLE).putHeader(PeerWire.H_RETRYABLE, "1").end(c.getMessage());
        } else if (c instanceof StubCallException s) {
            resp.setStatusCode(503).putHeader(PeerWire.H_RESULT, PeerWire.UNAVAILABLE)
                    .putHeader(PeerWire.H_RETRYABLE, s.retryable() ? "1" : "0").end(String.valueOf(c.getMessage()));
        } else {
            resp.setStatusCode(500).putHeader(PeerWire.H_RESULT, PeerWire.EXCEPTION)
                    .end(String.valueOf(c.getMessage() == null ? c.toString() : c.getMessage()));
        }
    }
}
