package dev.cellgate.gateway.peer;

import dev.cellgate.core.cell.Cells;
import dev.cellgate.core.logic.Scopes;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.WsFrame;
import dev.cellgate.gateway.http.Json;
import dev.cellgate.gateway.http.body.BodyCollector;
import dev.cellgate.gateway.ws.SocketRegistry;
import dev.cellgate.gateway.ws.TunnelBridge;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The owner's half of a WebSocket tunnel ({@link PeerSocketClient}): an upgrade to
 * {@code /peer/v1/socket/<scope>}, authenticated like every peer request (over GET, the path and
 * an empty body), delivered to this node's cell only. A {@code 101} with a socket accepts the
 * upgrade and joins the tunnel to the socket's end; any other answer goes back as an ordinary
 * response, which the caller passes on. The request stays paused until then: the upgrade reads it.
 */
public final class PeerSocketRoute {
    private static final Logger LOG = LoggerFactory.getLogger(PeerSocketRoute.class);

    private final Supplier<PeerAuth> auth;
    private final String self;
    private final Cells cells;
    private final BooleanSupplier draining;
    private final SocketRegistry registry;
    private final NonceWindow nonces = new NonceWindow(2 * PeerAuth.SKEW_MS + 5_000);

    public PeerSocketRoute(Supplier<PeerAuth> auth, String self, Cells cells, BooleanSupplier draining, SocketRegistry registry) {
        this.auth = auth;
        this.self = self;
        this.cells = cells;
        this.draining = draining;
        this.registry = registry;
    }

    public void mount(Router r) {
        r.get(PeerWire.PREFIX + "socket/:scope").handler(this::handle);
    }

    private void handle(RoutingContext ctx) {
        HttpServerRequest req = ctx.request();
        req.pause();
        PeerAuth a = auth.get();
        PeerAuth.Signed got = new PeerAuth.Signed(req.getHeader(PeerAuth.H_VERSION), req.getHeader(PeerAuth.H_SOURCE),
                req.getHeader(PeerAuth.H_TARGET), req.getHeader(PeerAuth.H_TS), req.getHeader(PeerAuth.H_NONCE),
                req.getHeader(PeerAuth.H_BODY), req.getHeader(PeerAuth.H_MAC));
        PeerAuth.Refusal no = a == null ? new PeerAuth.Refusal(503, "fleet key not loaded yet")
                : a.verify("GET", req.uri(), new byte[0], got, self, System.currentTimeMillis(), nonces);
        String scope = ctx.pathParam("scope");
        if (no == null && !Scopes.isValid(scope)) {
            no = new PeerAuth.Refusal(400, "invalid cell scope '" + scope + "'");
        }
        if (no == null && !"websocket".equalsIgnoreCase(req.getHeader("upgrade"))) {
            no = new PeerAuth.Refusal(400, "the socket route takes WebSocket upgrades only");
        }
        if (no != null) {
            LOG.atWarn().setMessage("peer.refused").addKeyValue("status", no.status()).addKeyValue("reason", no.reason())
                    .addKeyValue("source", String.valueOf(got.source())).addKeyValue("remote", String.valueOf(req.remoteAddress())).log();
            req.resume();
            Json.send(ctx.response(), no.status(), Json.error(no.reason()));
            return;
        }
        if (draining.getAsBoolean()) {
            req.resume();
            ctx.response().setStatusCode(503).putHeader(PeerWire.H_RESULT, PeerWire.DRAINING).end("node " + self + " is draining");
            return;
        }
        CellIdentity id = PeerRoutes.identity(scope, req.getParam("name"));
        HttpRequestData data = new HttpRequestData(req.getHeader(PeerWire.H_METHOD), req.getHeader(PeerWire.H_URL),
                PeerWire.decodeHeaders(req.getHeader(PeerWire.H_HEADERS)), Body.EMPTY, req.getHeader(PeerWire.H_REQUEST_ID));
        Context vctx = Vertx.currentContext();
        String source = got.source();
        cells.fetch(id, data).whenComplete((resp, e) -> vctx.runOnContext(v -> {
            if (e != null) {
                req.resume();
                PeerRoutes.failure(ctx.response(), e);
            } else if (resp.webSocket() != null) {
                accept(ctx, resp, source);
            } else {
                answer(ctx, resp);
            }
        }));
    }

    private void accept(RoutingContext ctx, HttpResponseData resp, String source) {
        HttpServerRequest req = ctx.request();
        req.response().headers().add(PeerWire.H_RESULT, PeerWire.OK).add(PeerWire.H_HEADERS, PeerWire.encodeHeaders(resp.headers()));
        req.toWebSocket().onComplete(ar -> {
            if (ar.failed()) {
                // The caller went away before the tunnel opened: the Durable Object sees its socket drop.
                resp.webSocket().send(new WsFrame.Close(WsFrame.ABNORMAL, ""));
                return;
            }
            TunnelBridge.join(ar.result(), resp.webSocket(), registry, source);
        });
    }

    /** Not a socket: the whole answer, with a length (the caller reads it from the refused upgrade). */
    private static void answer(RoutingContext ctx, HttpResponseData resp) {
        ctx.request().resume();
        Context vctx = Vertx.currentContext();
        BodyCollector.collect(resp.body(), Long.MAX_VALUE).whenComplete((body, e) -> vctx.runOnContext(x -> {
            if (e != null) {
                PeerRoutes.failure(ctx.response(), e);
                return;
            }
            var r = ctx.response().setStatusCode(resp.status()).putHeader(PeerWire.H_RESULT, PeerWire.OK)
                    .putHeader(PeerWire.H_HEADERS, PeerWire.encodeHeaders(resp.headers()));
            if (resp.statusText() != null && !resp.statusText().isEmpty()) {
                r.putHeader(PeerWire.H_STATUS_TEXT, resp.statusText());
            }
            r.end(Buffer.buffer(body));
        }));
    }
}
