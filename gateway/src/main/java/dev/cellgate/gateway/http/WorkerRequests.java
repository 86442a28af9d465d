package dev.cellgate.gateway.http;

import dev.cellgate.core.assets.AssetServer;
import dev.cellgate.core.assets.DeployedAssets;
import dev.cellgate.core.logic.assets.AssetRequest;
import dev.cellgate.core.logic.assets.UrlPaths;
import dev.cellgate.core.observe.LogContext;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.worker.WorkerPool;
import dev.cellgate.gateway.http.body.ReadStreamPublisher;
import dev.cellgate.core.spi.js.WsFrame;
import dev.cellgate.gateway.ws.EndBridge;
import dev.cellgate.gateway.ws.SocketRegistry;
import dev.cellgate.gateway.metrics.RequestMetrics;
import dev.cellgate.gateway.trace.NodeTracing;
import dev.cellgate.gateway.trace.OpenSpan;
import dev.cellgate.gateway.trace.Propagation;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Public requests to the Worker: read the request, run the deployment's {@code fetch} on this
 * event loop's Worker instance, write the response. Failures become clear HTTP errors and a log
 * line with the request id; the node keeps serving.
 *
 * <p>Each request has an id: the client's {@code X-Request-ID} when it is a plain token (a load
 * balancer's id then names the same request in both logs), else a random one. It is in the log
 * context while the Worker runs, travels with forwarded cell calls, and is echoed in the
 * response's {@code X-Request-ID} unless the Worker set that header itself.
 */
public final class WorkerRequests implements Handler<HttpServerRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerRequests.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    public static final String REQUEST_ID_HEADER = "x-request-id";
    private static final java.util.regex.Pattern CLIENT_ID = java.util.regex.Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private final WorkerPool pool;
    private final long maxBody;
    private final java.util.function.BooleanSupplier draining;
    private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
    private final SocketRegistry sockets;
    private final RequestMetrics metrics;
    private final dev.cellgate.core.logic.RequestCf cf;
    private final RetryableCellCalls unserved;
    private final DeployedAssets assets;
    private volatile NodeTracing tracing = NodeTracing.off();
    /** What a Worker request is told while no deployment is installed: loading, failed or none (as health says). */
    private volatile java.util.function.Supplier<String> noWorker = () -> new WorkerPool.NoDeploymentException().getMessage();

    public WorkerRequests(WorkerPool pool, long maxBody, java.util.function.BooleanSupplier draining, SocketRegistry sockets,
            RequestMetrics metrics) {
        this(pool, maxBody, draining, sockets, metrics, dev.cellgate.core.logic.RequestCf.NONE, null, null);
    }

    /**
     * @param cf       builds {@code request.cf} ({@code CELLD_CF_HEADERS})
     * @param unserved requests whose Durable Object call failed retryably (e.g. this node serves no
     *                 cells: degraded, issue 29): when the Worker fails such a request, it is answered
     *                 503 with Retry-After, not 500 as a Worker error
     * @param assets   the deployments' static assets, served before the Worker; null: none
     */
    public WorkerRequests(WorkerPool pool, long maxBody, java.util.function.BooleanSupplier draining, SocketRegistry sockets,
            RequestMetrics metrics, dev.cellgate.core.logic.RequestCf cf, RetryableCellCalls unserved, DeployedAssets assets) {
        this.cf = cf;
        this.assets = assets;
        this.pool = pool;
        this.maxBody = maxBody;
        this.draining = draining;
        this.sockets = sockets;
        this.metrics = metrics;
        this.unserved = unserved;
    }

    /** Sets what a request is answered (503) while no deployment is installed; the node says whether it loads, failed or has none. */
    public WorkerRequests noWorker(java.util.function.Supplier<String> why) {
        this.noWorker = why;
        return this;
    }

    /** Traces each request (a SERVER span, continuing the client's {@code traceparent}); off by default. */
    public WorkerRequests tracing(NodeTracing t) {
        this.tracing = t;
        return this;
    }

    /** {@code request.cf}: the HTTP version, TLS when it ended here, and the trusted balancer's headers. */
    private dev.cellgate.core.spi.js.HttpRequestData withCf(HttpServerRequest req, dev.cellgate.core.spi.js.HttpRequestData data) {
        String protocol = switch (req.version()) {
            case HTTP_1_0 -> "HTTP/1.0";
            case HTTP_2 -> "HTTP/2";
            default -> "HTTP/1.1";
        };
        String tls = null;
        String cipher = null;
        if (req.isSSL() && req.sslSession() != null) {
            tls = req.sslSession().getProtocol();
            cipher = req.sslSession().getCipherSuite();
        }
        return data.withCf(cf.json(protocol, tls, cipher, data.headers()));
    }

    /** Public requests being served right now (the drain waits for them). */
    public int inFlight() {
        return inFlight.get();
    }

    @Override
    public void handle(HttpServerRequest req) {
        long t0 = System.nanoTime();
        HttpServerResponse response = req.response();
        if (draining.getAsBoolean()) {
            // Tell the client (or load balancer) to go elsewhere, and close so it reconnects there.
            response.setStatusCode(503).putHeader("retry-after", "1").putHeader("content-type", "text/plain;charset=UTF-8");
            closeAfter(req, response);
            response.end("node is draining; retry");
            metrics.http(RequestMetrics.Kind.WORKER, 503, System.nanoTime() - t0);
            return;
        }
        inFlight.incrementAndGet();
        java.util.concurrent.atomic.AtomicBoolean counted = new java.util.concurrent.atomic.AtomicBoolean(true);
        // Once per request: when the response ended, or when the connection closed before (status 0: an error).
        java.util.function.IntConsumer finish = status -> {
            if (counted.getAndSet(false)) {
                inFlight.decrementAndGet();
                metrics.http(RequestMetrics.Kind.WORKER, status, System.nanoTime() - t0);
            }
        };
        String requestId = requestId(req);
        OpenSpan span = tracing.serve(req.method().name(), req.method().name(), req.path(), requestId,
                req.getHeader(Propagation.TRACEPARENT));
        Runnable done = () -> {
            int status = response.ended() ? response.getStatusCode() : 0;
            finish.accept(status);
            span.end(status, null);
            if (unserved != null) {
                unserved.take(requestId); // a mark nobody asked for (the Worker answered anyway) goes with its request
            }
        };
        response.endHandler(v -> done.run());
        response.closeHandler(v -> done.run());
        req.pause();
        Context ctx = Vertx.currentContext();
        if (HttpExchange.isUpgrade(req)) {
            upgrade(req, ctx, requestId, finish);
            return;
        }
        dev.cellgate.core.spi.js.LoadedScript script = pool.current();
        if (assets == null || script == null) {
            toWorker(req, ctx, requestId);
            return;
        }
        // Static assets answer before the Worker (SPEC §17), by the assets of the code that would run.
        assets.of(script.bundle().deploymentId())
                .thenCompose(server -> server.isEmpty() ? java.util.concurrent.CompletableFuture.completedFuture(null)
                        : server.get().servePublic(assetRequest(req)))
                .whenComplete((served, err) -> ctx.runOnContext(v -> {
                    try (LogContext.Scope s = LogContext.enter(requestId, null)) {
                        if (err != null) {
                            req.resume();
                            fail(req, requestId, unwrap(err));
                        } else if (served == null) {
                            toWorker(req, ctx, requestId);
                        } else {
                            writeAsset(req, requestId, served);
                        }
                    }
                }));
    }

    /** The request as asset routing reads it: {@code new URL(url).pathname}, the query, the conditional headers. */
    static AssetRequest assetRequest(HttpServerRequest req) {
        String uri = req.uri();
        int q = uri.indexOf('?');
        String path = req.path() == null ? "/" : req.path();
        String search = q < 0 || q == uri.length() - 1 ? "" : uri.substring(q);
        String host = req.authority() == null ? "" : req.authority().host();
        return new AssetRequest(req.method().name(), host, UrlPaths.pathname(path), search, req.getHeader("if-none-match"),
                req.getHeader("range") != null || req.getHeader("authorization") != null, req.getHeader("range"), req.getHeader("if-range"));
    }

    private void writeAsset(HttpServerRequest req, String requestId, AssetServer.Served served) {
        HttpServerResponse response = req.response();
        req.resume();
        response.setStatusCode(served.status());
        served.headers().forEach(response::putHeader);
        response.putHeader(REQUEST_ID_HEADER, requestId);
        if (served.body().length == 0) {
            response.end();
        } else {
            response.end(io.vertx.core.buffer.Buffer.buffer(served.body()));
        }
    }

    private void toWorker(HttpServerRequest req, Context ctx, String requestId) {
        HttpServerResponse response = req.response();
        java.util.concurrent.atomic.AtomicBoolean tooLarge = new java.util.concurrent.atomic.AtomicBoolean();
        HttpExchange.read(req, requestId, maxBody, tooLarge)
                // The Worker runs in a lane, which sets the request's log context itself.
                .thenCompose(data -> pool.fetch(ctx, withCf(req, data)))
                .whenComplete((resp, err) -> ctx.runOnContext(v -> {
                    if (!tooLarge.get() && err == null && resp.webSocket() == null) {
                        // The common path logs nothing here: no log context to set and restore.
                        if (!hasHeader(resp, REQUEST_ID_HEADER)) {
                            response.putHeader(REQUEST_ID_HEADER, requestId);
                        }
                        HttpExchange.write(response, ctx, resp);
                        return;
                    }
                    try (LogContext.Scope s = LogContext.enter(requestId, null)) {
                        if (tooLarge.get()) {
                            fail(req, requestId, new HttpExchange.TooLarge(maxBody));
                        } else if (err == null) {
                            refuseSocket(req, requestId, resp);
                        } else {
                            fail(req, requestId, unwrap(err));
                        }
                    }
                }));
    }

    /**
     * {@code Upgrade: websocket}: the Worker decides. A {@code 101} with a WebSocket turns the
     * still-paused request into a WebSocket joined to that end; any other answer is an ordinary
     * response. Once upgraded the connection no longer counts as a request in flight (the drain
     * closes sockets with 1012 instead of waiting for them).
     */
    private void upgrade(HttpServerRequest req, Context ctx, String requestId, java.util.function.IntConsumer finish) {
        pool.fetch(ctx, withCf(req, HttpExchange.upgrade(req, requestId))).whenComplete((resp, err) -> ctx.runOnContext(v -> {
            try (LogContext.Scope s = LogContext.enter(requestId, null)) {
                if (err != null || resp.webSocket() == null) {
                    req.resume();
                    if (err != null) {
                        fail(req, requestId, unwrap(err));
                    } else {
                        if (!hasHeader(resp, REQUEST_ID_HEADER)) {
                            req.response().putHeader(REQUEST_ID_HEADER, requestId);
                        }
                        HttpExchange.write(req.response(), ctx, resp);
                    }
                    return;
                }
                if (hasHeader(resp, "sec-websocket-protocol")) {
                    resp.webSocket().send(new WsFrame.Close(WsFrame.ABNORMAL, ""));
                    req.resume();
                    fail(req, requestId, new UnsupportedOperationException(
                            "the Worker selected a WebSocket subprotocol (Sec-WebSocket-Protocol), which cellgate does not negotiate"));
                    return;
                }
                upgradeTo(req, requestId, resp, finish);
            }
        }));
    }

    /** Completes the handshake (101) and joins the client's socket to the Worker's end. */
    private void upgradeTo(HttpServerRequest req, String requestId, dev.cellgate.core.spi.js.HttpResponseData resp,
            java.util.function.IntConsumer finish) {
        req.toWebSocket().onComplete(ar -> {
            // The upgrade is the request; the socket's life after it is not request latency.
            finish.accept(ar.succeeded() ? 101 : 0);
            if (ar.failed()) {
                resp.webSocket().send(new WsFrame.Close(WsFrame.ABNORMAL, ""));
                LOG.atDebug().setMessage("websocket.upgrade_failed").addKeyValue("request_id", requestId)
                        .addKeyValue("error", String.valueOf(ar.cause())).log();
                return;
            }
            EndBridge.join(ar.result(), resp.webSocket(), sockets);
        });
    }

    /** A 101 to a request that asked for no WebSocket: workerd refuses it the same way. */
    private void refuseSocket(HttpServerRequest req, String requestId, dev.cellgate.core.spi.js.HttpResponseData resp) {
        resp.webSocket().send(new WsFrame.Close(WsFrame.ABNORMAL, ""));
        fail(req, requestId, new IllegalStateException("Worker tried to return a WebSocket in a response to a request which did not "
                + "contain the header \"Upgrade: websocket\"."));
    }

    /** The client's id when it is a plain token, else a fresh random one. */
    static String requestId(HttpServerRequest req) {
        String given = req.getHeader(REQUEST_ID_HEADER);
        return given != null && CLIENT_ID.matcher(given).matches() ? given : newRequestId();
    }

    private static boolean hasHeader(dev.cellgate.core.spi.js.HttpResponseData r, String name) {
        for (java.util.Map.Entry<String, String> h : r.headers()) {
            if (h.getKey().equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    private void fail(HttpServerRequest req, String requestId, Throwable e) {
        HttpServerResponse resp = req.response();
        if (resp.headWritten()) {
            resp.reset();
            return;
        }
        resp.putHeader(REQUEST_ID_HEADER, requestId);
        int status;
        String body;
        RetryableCellCalls.Mark mark = null;
        if (e instanceof HttpExchange.TooLarge || e instanceof ReadStreamPublisher.BodyTooLargeException) {
            status = 413;
            body = e.getMessage();
            closeAfter(req, resp); // the rest of the body is not read
        } else if (e instanceof HttpExchange.BadRequest) {
            status = 400;
            body = e.getMessage();
        } else if (e instanceof WorkerPool.NoDeploymentException) {
            status = 503;
            body = noWorker.get();
            resp.putHeader("retry-after", "1");
        } else if (e instanceof StubCallException s && s.retryable()) {
            status = 503;
            body = "Durable Object unavailable, retry: " + e.getMessage();
            resp.putHeader("retry-after", "1");
        } else if ((mark = unserved == null ? null : unserved.takeMark(requestId)) == RetryableCellCalls.Mark.OWNER_LOST) {
            // The Worker did not catch a Durable Object call lost with its owner (SPEC §18: through an owner's
            // crash callers get their answer after the takeover, or 503 + Retry-After, never 500). It may have
            // run: the body says to read the state before retrying.
            status = 503;
            body = "Durable Object call lost with its owner (" + e.getMessage()
                    + "); it may or may not have run: read the state before retrying (request " + requestId + ")";
            resp.putHeader("retry-after", "1");
            LOG.atWarn().setMessage("worker.cell_owner_lost").addKeyValue("request_id", requestId)
                    .addKeyValue("error", String.valueOf(e.getMessage())).log();
        } else if (mark == RetryableCellCalls.Mark.UNAVAILABLE) {
            // The Worker did not catch the retryable failure of a Durable Object call (e.g. this node or
            // the object's owner lost its lease: a node rejoins once the bucket answers).
            status = 503;
            body = "Durable Object unavailable (" + e.getMessage() + "); retry (request " + requestId + ")";
            resp.putHeader("retry-after", "1");
            LOG.atInfo().setMessage("worker.cell_unserved").addKeyValue("request_id", requestId)
                    .addKeyValue("error", String.valueOf(e.getMessage())).log();
        } else {
            status = 500;
            body = "Worker threw an exception (request " + requestId + ")";
            LOG.atError().setMessage("worker.exception").addKeyValue("request_id", requestId)
                    .addKeyValue("error", String.valueOf(e.getMessage())).setCause(e).log();
        }
        resp.setStatusCode(status).putHeader("content-type", "text/plain;charset=UTF-8").end(body);
    }

    /** HTTP/1.x: {@code Connection: close}. HTTP/2 forbids that header: send GOAWAY after the response instead. */
    private static void closeAfter(HttpServerRequest req, HttpServerResponse resp) {
        if (req.version() == io.vertx.core.http.HttpVersion.HTTP_2) {
            resp.endHandler(v -> req.connection().shutdown());
        } else {
            resp.putHeader("connection", "close");
        }
    }

    private static Throwable unwrap(Throwable e) {
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    static String newRequestId() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
