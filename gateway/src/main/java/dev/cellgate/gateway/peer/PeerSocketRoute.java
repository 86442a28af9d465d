package dev.cellgate.gateway.peer;

import dev.cellgate.core.cell.Cells;
import dev.cellgate.core.fleet.PeerSignature.Envelope;
import dev.cellgate.core.fleet.PeerSignature.Signed;
import dev.cellgate.core.logic.Scopes;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.WsFrame;
import dev.cellgate.core.time.Ticker;
import dev.cellgate.gateway.http.Json;
import dev.cellgate.gateway.http.body.BodyCollector;
import dev.cellgate.gateway.ws.SocketRegistry;
import dev.cellgate.gateway.ws.TunnelBridge;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The owner's half of a WebSocket tunnel ({@link PeerSocketClient}): an upgrade to
 * {@code /peer/v1/socket/<scope>}, authenticated like every peer request (over GET, the path, an
 * empty body and the forwarded envelope) before anything else, delivered to this node's cell
 * only. A {@code 101} with a socket accepts the upgrade — its headers signed — and joins the
 * tunnel to the socket's end; any other answer goes back as an ordinary signed response, which
 * the caller passes on. The request stays paused until then: the upgrade reads it.
 */
public final class PeerSocketRoute {
    private static final Logger LOG = LoggerFactory.getLogger(PeerSocketRoute.class);

    private final Supplier<PeerAuth> auth;
    private final String self;
    private final Cells cells;
    private final BooleanSupplier draining;
    private final SocketRegistry registry;
    /** Judges each upgrade's signed timestamp (±30 s of this clock, SPEC §6). */
    private final Ticker wall;
    private final NonceWindow nonces = new NonceWindow(2 * PeerAuth.SKEW_MS + 5_000);

    public PeerSocketRoute(Supplier<PeerAuth> auth, String self, Cells cells, BooleanSupplier draining, SocketRegistry registry, Ticker wall) {
        this.auth = auth;
        this.self = self;
        this.cells = cells;
        this.draining = draining;
        this.registry = registry;
        this.wall = wall;
    }

    public void mount(Router r) {
        r.get(PeerWire.PREFIX + "socket/:scope").handler(this::handle);
    }

    private void handle(RoutingContext ctx) {
        HttpServerRequest req = ctx.request();
        req.pause();
        PeerAuth a = auth.get();
        Signed got = PeerWire.signedOf(req::getHeader);
        Envelope envelope = PeerWire.envelopeOf(req::getHeader);
        PeerAuth.Refusal no = a == null ? new PeerAuth.Refusal(503, "fleet key not loaded yet")
                : a.verifyHead("GET", req.uri(), got, envelope, self, wall.nowMs(), nonces);
        if (no != null) {
            LOG.atWarn().setMessage("peer.refused").addKeyValue("status", no.status()).addKeyValue("reason", no.reason())
                    .addKeyValue("source", String.valueOf(got.source())).addKeyValue("remote", String.valueOf(req.remoteAddress())).log();
            PeerRoutes.refuseUnread(ctx, no.status(), Json.error(no.reason()));
            return;
        }
        PeerAnswer answer = new PeerAnswer(a, got.nonce(), ctx.response());
        String scope = ctx.pathParam("scope");
        String refusal = !PeerAuth.bodyMatches(got, PeerAuth.sha256(null)) ? "an upgrade has no body"
                : !Scopes.isValid(scope) ? "invalid cell scope '" + scope + "'"
                : !"websocket".equalsIgnoreCase(req.getHeader("upgrade")) ? "the socket route takes WebSocket upgrades only" : null;
        if (refusal != null) {
            req.resume();
            answer.refuse(400, refusal);
            return;
        }
        if (draining.getAsBoolean()) {
            req.resume();
            answer.draining("node " + self + " is draining");
            return;
        }
        CellIdentity id = PeerRoutes.identity(scope, req.getParam("name"));
        HttpRequestData data = new HttpRequestData(envelope.method(), envelope.url(), PeerWire.decodeHeaders(envelope.headers()),
                Body.EMPTY, envelope.requestId().isEmpty() ? null : envelope.requestId());
        Context vctx = Vertx.currentContext();
        String source = got.source();
        cells.fetch(id, data).whenComplete((resp, e) -> vctx.runOnContext(v -> {
            if (e != null) {
                req.resume();
                answer.failure(e);
            } else if (resp.webSocket() != null) {
                accept(ctx, resp, source, a, got.nonce());
            } else {
                req.resume();
                answerWhole(answer, vctx, resp);
            }
        }));
    }

    /** Not a socket: the whole answer with a length (the caller reads it from the refused upgrade, trailers unseen). */
    private static void answerWhole(PeerAnswer answer, Context vctx, HttpResponseData resp) {
        BodyCollector.collect(resp.body(), Long.MAX_VALUE).whenComplete((body, e) -> vctx.runOnContext(x -> {
            if (e != null) {
                answer.failure(e);
            } else {
                answer.send(resp.status(), PeerRoutes.okHeaders(resp), body);
            }
        }));
    }

    /** The cell accepted a socket: a signed 101, and the tunnel joined to the socket's end. */
    private void accept(RoutingContext ctx, HttpResponseData resp, String source, PeerAuth a, String nonce) {
        HttpServerRequest req = ctx.request();
        MultiMap h = PeerAnswer.result(PeerWire.OK).add(PeerWire.H_HEADERS, PeerWire.encodeHeaders(resp.headers()));
        if (resp.statusText() != null && !resp.statusText().isEmpty()) {
            h.add(PeerWire.H_STATUS_TEXT, resp.statusText());
        }
        PeerAnswer.signUpgrade(a, nonce, h);
        req.response().headers().addAll(h);
        req.toWebSocket().onComplete(ar -> {
            if (ar.failed()) {
                // The caller went away before the tunnel opened: the Durable Object sees its socket drop.
                resp.webSocket().send(new WsFrame.Close(WsFrame.ABNORMAL, ""));
                return;
            }
            TunnelBridge.join(ar.result(), resp.webSocket(), registry, source);
        });
    }
}
