package dev.cellgate.gateway.dashboard;

import dev.cellgate.gateway.http.Json;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code /dashboard} on the internal listener: one page, its script and stylesheet, all served
 * by the node (no CDN, nothing fetched from elsewhere: the Content-Security-Policy forbids it),
 * and {@code /dashboard/data}, the JSON the page polls.
 */
public final class DashboardRoutes {
    /** The page may load and fetch only from the node that served it. */
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:;"
            + " base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private final DashboardData data;
    private final Buffer page = resource("index.html");
    private final Buffer script = resource("app.js");
    private final Buffer style = resource("app.css");

    public DashboardRoutes(DashboardData data) {
        this.data = data;
    }

    public void mount(Router r) {
        r.get("/dashboard").handler(ctx -> send(ctx, "text/html; charset=utf-8", page));
        r.get("/dashboard/").handler(ctx -> send(ctx, "text/html; charset=utf-8", page));
        r.get("/dashboard/app.js").handler(ctx -> send(ctx, "text/javascript; charset=utf-8", script));
        r.get("/dashboard/app.css").handler(ctx -> send(ctx, "text/css; charset=utf-8", style));
        r.get("/dashboard/data").handler(this::data);
    }

    private void data(RoutingContext ctx) {
        io.vertx.core.Context here = ctx.vertx().getOrCreateContext();
        data.build().whenComplete((json, e) -> here.runOnContext(v -> {
            ctx.response().putHeader("cache-control", "no-store");
            if (e != null) {
                Json.send(ctx.response(), 500, Json.error("dashboard data: " + e));
            } else {
                Json.send(ctx.response(), 200, json);
            }
        }));
    }

    private static void send(RoutingContext ctx, String type, Buffer body) {
        ctx.response().putHeader("content-type", type).putHeader("cache-control", "no-cache")
                .putHeader("content-security-policy", CSP).putHeader("x-content-type-options", "nosniff")
                .end(body);
    }

    private static Buffer resource(String name) {
        try (InputStream in = DashboardRoutes.class.getResourceAsStream("/dashboard/" + name)) {
            if (in == null) {
                throw new IllegalStateException("dashboard resource /dashboard/" + name + " is missing from the gateway jar");
            }
            return Buffer.buffer(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read dashboard resource " + name, e);
        }
    }
}
