package dev.cellgate.gateway.node;

import dev.cellgate.core.fleet.OperatorSignature;
import dev.cellgate.gateway.http.Json;
import dev.cellgate.gateway.peer.NonceWindow;
import dev.cellgate.gateway.peer.PeerWire;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may change a node through its internal listener (SPEC §19). Reads ({@code GET}, {@code HEAD}:
 * state, metrics, a cell's whereabouts, the dashboard) stay open; every other method needs a call
 * signed with the fleet key ({@link OperatorSignature}, as {@code deploy-tool node} signs) or
 * {@code Authorization: Bearer} with {@code CELLD_OPERATOR_TOKEN}, else 401 and the route never runs.
 * The peer routes ({@link PeerWire#PREFIX}) check their own signature. Installed on the internal
 * router before every route, so a route added later is covered without knowing it.
 */
final class OperatorAuth implements Handler<RoutingContext> {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorAuth.class);
    /** Operator calls carry no real body; this bounds what an unauthenticated client can make the node buffer. */
    static final int MAX_BODY = 64 * 1024;
    /** Where a signed call's body, read here to check its digest, waits for the route (a request's body can be read once). */
    static final String BODY = "operator.body";

    private final Supplier<OperatorSignature> signature;
    private final String self;
    private final byte[] tokenDigest;
    private final NonceWindow nonces = new NonceWindow(2 * OperatorSignature.SKEW_MS);

    /**
     * @param signature the fleet key's signature (null while it is not loaded: signed calls are then refused)
     * @param token     {@code CELLD_OPERATOR_TOKEN}, if set
     */
    OperatorAuth(Supplier<OperatorSignature> signature, String self, Optional<String> token) {
        this.signature = signature;
        this.self = self;
        this.tokenDigest = token.map(OperatorAuth::digest).orElse(null);
    }

    @Override
    public void handle(RoutingContext ctx) {
        HttpServerRequest req = ctx.request();
        // The router matches the normalized path (dot-segments removed, decoded): judge the same one.
        String path = ctx.normalizedPath();
        if (req.method() == HttpMethod.GET || req.method() == HttpMethod.HEAD || (path != null && path.startsWith(PeerWire.PREFIX))) {
            ctx.next();
            return;
        }
        String declared = req.getHeader("content-length");
        if (declared != null && (!declared.matches("\\d{1,18}") || Long.parseLong(declared) > MAX_BODY)) {
            refuse(ctx, 413, "an operator call's body is at most " + MAX_BODY + " bytes");
            return;
        }
        String authorization = req.getHeader("authorization");
        if (authorization != null) {
            checkBearer(ctx, authorization);
            return;
        }
        if (req.getHeader(OperatorSignature.H_MAC) == null) {
            refuse(ctx, 401, req.method().name() + " " + path + " changes the node: sign the call with the fleet key"
                    + " (deploy-tool node ...) or send Authorization: Bearer <CELLD_OPERATOR_TOKEN>");
            return;
        }
        req.body().onComplete(ar -> {
            if (ar.failed()) {
                refuse(ctx, 400, "could not read the body: " + ar.cause().getMessage());
                return;
            }
            byte[] body = ar.result().getBytes();
            if (body.length > MAX_BODY) {
                refuse(ctx, 413, "an operator call's body is at most " + MAX_BODY + " bytes");
                return;
            }
            ctx.put(BODY, body);
            checkSignature(ctx, body);
        });
    }

    private void checkBearer(RoutingContext ctx, String authorization) {
        if (tokenDigest == null) {
            refuse(ctx, 401, "this node has no CELLD_OPERATOR_TOKEN: sign the call with the fleet key (deploy-tool node ...)");
            return;
        }
        boolean bearer = authorization.regionMatches(true, 0, "Bearer ", 0, 7);
        // Digests of equal length, compared in constant time: neither the token nor its length leaks.
        if (!bearer || !MessageDigest.isEqual(tokenDigest, digest(authorization.substring(7).strip()))) {
            refuse(ctx, 401, "wrong operator token");
            return;
        }
        accepted(ctx, "token");
    }

    private void checkSignature(RoutingContext ctx, byte[] body) {
        HttpServerRequest req = ctx.request();
        OperatorSignature sig = signature.get();
        if (sig == null) {
            refuse(ctx, 503, "the fleet key is not loaded yet");
            return;
        }
        OperatorSignature.Signed got = new OperatorSignature.Signed(req.getHeader(OperatorSignature.H_TARGET),
                req.getHeader(OperatorSignature.H_TS), req.getHeader(OperatorSignature.H_NONCE),
                req.getHeader(OperatorSignature.H_BODY), req.getHeader(OperatorSignature.H_MAC));
        long now = System.currentTimeMillis();
        String no = sig.refusal(req.method().name(), req.uri(), body, got, self, now);
        if (no == null && !nonces.firstSighting(got.nonce(), Long.parseLong(got.ts()), now)) {
            no = "replayed nonce: an operator call is accepted once";
        }
        if (no != null) {
            refuse(ctx, 401, no);
            return;
        }
        accepted(ctx, "signature");
    }

    private void accepted(RoutingContext ctx, String by) {
        LOG.atInfo().setMessage("operator.call").addKeyValue("method", ctx.request().method().name())
                .addKeyValue("path", ctx.request().path()).addKeyValue("by", by)
                .addKeyValue("remote", String.valueOf(ctx.request().remoteAddress())).log();
        ctx.next();
    }

    private static void refuse(RoutingContext ctx, int status, String reason) {
        LOG.atWarn().setMessage("operator.refused").addKeyValue("status", status).addKeyValue("method", ctx.request().method().name())
                .addKeyValue("path", ctx.request().path()).addKeyValue("reason", reason)
                .addKeyValue("remote", String.valueOf(ctx.request().remoteAddress())).log();
        if (status == 401) {
            ctx.response().putHeader("www-authenticate", "Bearer realm=\"cellgate operator API\"");
        }
        Json.send(ctx.response(), status, Json.error(reason));
    }

    private static byte[] digest(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
