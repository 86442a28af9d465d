package dev.cellgate.gateway.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The peer requests this node is answering, and how long since the last one, so a stopping node
 * closes its internal listener only once its peers have stopped routing here
 * ({@code DrainCondition.listenerMayClose}). While the node drains, every peer answer also closes
 * its connection: a kept-alive connection the listener later closes under a peer that is just
 * sending on it would turn a call into "outcome unknown". WebSocket tunnels are not counted: they
 * are closed with 1012 by the node's socket registry.
 */
public final class PeerTraffic {
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile long lastNanos = System.nanoTime();

    /** Mount before the peer routes: it runs first and passes the request on. */
    Handler<RoutingContext> handler(BooleanSupplier draining) {
        return ctx -> {
            if ("websocket".equalsIgnoreCase(ctx.request().getHeader("upgrade"))) {
                ctx.next();
                return;
            }
            lastNanos = System.nanoTime();
            inFlight.incrementAndGet();
            ctx.addHeadersEndHandler(v -> {
                if (draining.getAsBoolean()) {
                    ctx.response().headers().set("connection", "close");
                }
            });
            ctx.addEndHandler(ar -> {
                inFlight.decrementAndGet();
                lastNanos = System.nanoTime();
            });
            ctx.next();
        };
    }

    public int inFlight() {
        return Math.max(0, inFlight.get());
    }

    /** Milliseconds since a peer request last arrived or was answered. */
    public long quietMs() {
        return Math.max(0, (System.nanoTime() - lastNanos) / 1_000_000);
    }
}
