package dev.cellgate.gateway.http;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;

/**
 * The public listener: {@code /__celld/health} for load balancers, every other path to the
 * Worker. A plain request handler (no router): this is the hot path.
 */
public final class PublicListener {
    /** A silent connection's life when no event can take longer. */
    static final int DEFAULT_IDLE_TIMEOUT_SECONDS = 120;
    public static final String HEALTH_PATH = "/__celld/health";
    /** Largest WebSocket message a client may send (1 MiB). */
    public static final int MAX_WEBSOCKET_MESSAGE = 1 << 20;

    private final Vertx vertx;
    private final Supplier<JsonObject> unhealthyReason;
    private final Supplier<JsonObject> healthyNotes;
    private final Handler<HttpServerRequest> worker;
    private int idleTimeoutSeconds = DEFAULT_IDLE_TIMEOUT_SECONDS;

    /**
     * @param unhealthyReason null when healthy, else the JSON details of why not
     * @param worker          handles every non-health request
     */
    public PublicListener(Vertx vertx, Supplier<JsonObject> unhealthyReason, Handler<HttpServerRequest> worker) {
        this(vertx, unhealthyReason, () -> null, worker);
    }

    /**
     * @param healthyNotes what a healthy (200) answer adds, or null: e.g. that the node is degraded
     *                     (it serves stateless requests but no cells, issue 29)
     */
    public PublicListener(Vertx vertx, Supplier<JsonObject> unhealthyReason, Supplier<JsonObject> healthyNotes,
                          Handler<HttpServerRequest> worker) {
        this.vertx = vertx;
        this.unhealthyReason = unhealthyReason;
        this.healthyNotes = healthyNotes;
        this.worker = worker;
    }

    /**
     * How long a connection may stay silent, a request in flight included (Vert.x closes it then):
     * at least as long as the longest event can compute before it answers, or a Worker with a large
     * limits.cpu_ms would lose its client mid-request.
     */
    public PublicListener idleTimeoutSeconds(int seconds) {
        this.idleTimeoutSeconds = Math.max(DEFAULT_IDLE_TIMEOUT_SECONDS, seconds);
        return this;
    }

    /** Binds on the calling context (one event loop); several listeners may share the port. */
    public Future<HttpServer> listen(String host, int port) {
        HttpServerOptions opts = new HttpServerOptions().setHost(host).setPort(port)
                .setCompressionSupported(false).setTcpNoDelay(true).setIdleTimeout(idleTimeoutSeconds)
                // Cloudflare's WebSocket message limit; idle sockets are kept alive by SocketRegistry's pings.
                .setMaxWebSocketFrameSize(MAX_WEBSOCKET_MESSAGE).setMaxWebSocketMessageSize(MAX_WEBSOCKET_MESSAGE);
        return vertx.createHttpServer(opts).requestHandler(this::handle).listen();
    }

    private void handle(HttpServerRequest req) {
        if (HEALTH_PATH.equals(req.path())) {
            JsonObject why = unhealthyReason.get();
            if (why == null) {
                JsonObject notes = healthyNotes.get();
                Json.send(req.response(), 200, notes == null ? new JsonObject().put("ok", true)
                        : new JsonObject().put("ok", true).mergeIn(notes));
            } else {
                Json.send(req.response(), 503, new JsonObject().put("ok", false).mergeIn(why));
            }
            return;
        }
        worker.handle(req);
    }
}
