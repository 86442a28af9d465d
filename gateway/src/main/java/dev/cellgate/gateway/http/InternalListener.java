package dev.cellgate.gateway.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import dev.cellgate.gateway.metrics.RequestMetrics;
import io.vertx.ext.web.Router;

/**
 * The internal listener: peer routes and the operator API. Never reaches the Worker: unknown
 * paths answer 404 JSON.
 */
public final class InternalListener {
    private final Vertx vertx;
    private final Router router;

    public InternalListener(Vertx vertx) {
        this.vertx = vertx;
        this.router = Router.router(vertx);
    }

    /**
     * Times every request under {@code pathPrefix} (status 0 when the connection failed first).
     * Call before the routes it times are mounted: it runs first and passes the request on.
     */
    public void timed(String pathPrefix, RequestMetrics.Kind kind, RequestMetrics metrics) {
        router.route(pathPrefix + "*").handler(ctx -> {
            long t0 = System.nanoTime();
            ctx.addEndHandler(ar -> metrics.http(kind, ar.succeeded() ? ctx.response().getStatusCode() : 0, System.nanoTime() - t0));
            ctx.next();
        });
    }

    /**
     * Counts the requests under {@code pathPrefix} (the peer protocol) for the drain, and closes
     * their connections while {@code draining}. Call before the routes it counts are mounted.
     */
    public PeerTraffic peerTraffic(String pathPrefix, java.util.function.BooleanSupplier draining) {
        PeerTraffic t = new PeerTraffic();
        router.route(pathPrefix + "*").handler(t.handler(draining));
        return t;
    }

    /** Routes are added by the parts of the node that own them (operator API, peer protocol). */
    public Router router() {
        return router;
    }

    public Future<HttpServer> listen(String host, int port) {
        router.route().last().handler(ctx -> Json.send(ctx.response(), 404,
                Json.error("not found").put("path", ctx.request().path())));
        router.errorHandler(405, ctx -> Json.send(ctx.response(), 405,
                Json.error("method not allowed").put("method", ctx.request().method().name()).put("path", ctx.request().path())));
        router.errorHandler(500, ctx -> Json.send(ctx.response(), 500,
                Json.error(String.valueOf(ctx.failure()))));
        HttpServerOptions opts = new HttpServerOptions().setHost(host).setPort(port).setTcpNoDelay(true);
        return vertx.createHttpServer(opts).requestHandler(router).listen();
    }
}
