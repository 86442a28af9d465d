package dev.cellgate.gateway.http;

import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.worker.WorkerPool;
import dev.cellgate.gateway.http.body.ReadStreamPublisher;
import dev.cellgate.core.spi.js.WsFrame;
import dev.cellgate.gateway.ws.EndBridge;
import dev.cellgate.gateway.ws.SocketRegistry;
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
 */
public final class WorkerRequests implements Handler<HttpServerRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerRequests.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final WorkerPool pool;
    private final long maxBody;
    private final java.util.function.BooleanSupplier draining;
    private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
    private final SocketRegistry sockets;

    public WorkerRequests(WorkerPool pool, long maxBody, java.util.function.BooleanSupplier draining, SocketRegistry sockets) {
        this.pool = pool;
        this.maxBody = maxBody;
        this.draining = draining;
        this.sockets = sockets;
    }

    /** Public requests being served right now (the drain waits for them). */
    public int inFlight() {
        return inFlight.get();
    }

    @Override
    public void handle(HttpServerRequest req) {
        if (draining.getAsBoolean()) {
            // Tell the client (or load balancer) to go elsewhere, and close so it reconnects there.
            HttpServerResponse resp = req.response().setStatusCode(503).putHeader("retry-after", "1")
                    .putHeader("content-type", "text/plain;charset=UTF-8");
            closeAfter(req, resp);
            resp.end("node is draining; retry");
            return;
        }
        inFlight.incrementAndGet();
        java.util.concurrent.atomic.AtomicBoolean counted = new java.util.concurrent.atomic.AtomicBoolean(true);
        Runnable done = () -> {
            if (counted.getAndSet(false)) {
                inFlight.decrementAndGet();
            }
        };
        req.response().endHandler(v -> done.run());
        req.response().closeHandler(v -> done.run());
        req.pause();
        Context ctx = Vertx.currentContext();
        String requestId = newRequestId();
        if (HttpExchange.isUpgrade(req)) {
            upgrade(req, ctx, requestId, done);
            return;
        }
        java.util.concurrent.atomic.AtomicBoolean tooLarge = new java.util.concurrent.atomic.AtomicBoolean();
        HttpExchange.read(req, requestId, maxBody, tooLarge)
                .thenCompose(data -> pool.fetch(ctx, data))
                .whenComplete((resp, err) -> ctx.runOnContext(v -> {
                    if (tooLarge.get()) {
                        fail(req, requestId, new HttpExchange.TooLarge(maxBody));
                    } else if (err == null && resp.webSocket() != null) {
                        refuseSocket(req, requestId, resp);
                    } else if (err == null) {
                        HttpExchange.write(req.response(), ctx, resp);
                    } else {
                        fail(req, requestId, unwrap(err));
                    }
                }));
    }

    /**
     * {@code Upgrade: websocket}: the Worker decides. A {@code 101} with a WebSocket turns the
     * still-paused request into a WebSocket joined to that end; any other answer is an ordinary
     * response. Once upgraded the connection no longer counts as a request in flight (the drain
     * closes sockets with 1012 instead of waiting for them).
     */
    private void upgrade(HttpServerRequest req, Context ctx, String requestId, Runnable done) {
        pool.fetch(ctx, HttpExchange.upgrade(req, requestId)).whenComplete((resp, err) -> ctx.runOnContext(v -> {
            if (err != null || resp.webSocket() == null) {
                req.resume();
                if (err != null) {
                    fail(req, requestId, unwrap(err));
                } else {
                    HttpExchange.write(req.response(), ctx, resp);
                }
                return;
            }
            if (resp.headers().stream().anyMatch(h -> h.getKey().equalsIgnoreCase("sec-websocket-protocol"))) {
                resp.webSocket().send(new WsFrame.Close(WsFrame.ABNORMAL, ""));
                req.resume();
                fail(req, requestId, new UnsupportedOperationException(
                        "the Worker selected a WebSocket subprotocol (Sec-WebSocket-Protocol), which cellgate does not negotiate"));
                return;
            }
            req.toWebSocket().onComplete(ar -> {
                done.run();
                if (ar.failed()) {
                    resp.webSocket().send(new WsFrame.Close(WsFrame.ABNORMAL, ""));
                    LOG.atDebug().setMessage("websocket.upgrade_failed").addKeyValue("request_id", requestId)
                            .addKeyValue("error", String.valueOf(ar.cause())).log();
                    return;
                }
                EndBridge.join(ar.result(), resp.webSocket(), sockets);
            });
        }));
    }

    /** A 101 to a request that asked for no WebSocket: workerd refuses it the same way. */
    private void refuseSocket(HttpServerRequest req, String requestId, dev.cellgate.core.spi.js.HttpResponseData resp) {
        resp.webSocket().send(new WsFrame.Close(WsFrame.ABNORMAL, ""));
        fail(req, requestId, new IllegalStateException("Worker tried to return a WebSocket in a response to a request which did not "
                + "contain the header \"Upgrade: websocket\"."));
    }

    private void fail(HttpServerRequest req, String requestId, Throwable e) {
        HttpServerResponse resp = req.response();
        if (resp.headWritten()) {
            resp.reset();
            return;
        }
        int status;
        String body;
        if (e instanceof HttpExchange.TooLarge || e instanceof ReadStreamPublisher.BodyTooLargeException) {
            status = 413;
            body = e.getMessage();
            closeAfter(req, resp); // the rest of the body is not read
        } else if (e instanceof HttpExchange.BadRequest) {
            status = 400;
            body = e.getMessage();
        } else if (e instanceof WorkerPool.NoDeploymentException) {
            status = 503;
            body = e.getMessage();
            resp.putHeader("retry-after", "1");
        } else if (e instanceof StubCallException s && s.retryable()) {
            status = 503;
            body = "Durable Object unavailable, retry: " + e.getMessage();
            resp.putHeader("retry-after", "1");
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
