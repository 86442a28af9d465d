package dev.cellgate.gateway.http;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import java.util.function.Supplier;

/**
 * One public HTTP server per event loop (deployed with N instances on the same port): Vert.x
 * spreads connections over them, and each runs its requests on its own loop's Worker instance.
 */
public final class PublicServerVerticle extends VerticleBase {
    private final Supplier<PublicListener> listener;
    private final String host;
    private final int port;
    private HttpServer server;

    public PublicServerVerticle(Supplier<PublicListener> listener, String host, int port) {
        this.listener = listener;
        this.host = host;
        this.port = port;
    }

    @Override
    public Future<?> start() {
        return listener.get().listen(host, port).onSuccess(s -> server = s);
    }

    public int actualPort() {
        return server == null ? -1 : server.actualPort();
    }
}
