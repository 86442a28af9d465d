package dev.cellgate.js.graal.support;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

/**
 * The origin that outbound {@code fetch()} talks to in tests, on an ephemeral loopback port:
 * {@code /text}, {@code /echo} (method, path, headers, body as JSON), {@code /redirect?to=&status=},
 * {@code /status/<n>}, {@code /stream} (chunked, in pieces), {@code /slow} (answers after 2 s), {@code /events} (an
 * event stream for EventSource, see {@link #events}).
 */
public final class OriginServer implements AutoCloseable {
    private final Vertx vertx;
    private final HttpServer server;
    private final java.util.concurrent.atomic.AtomicInteger requests;

    private OriginServer(Vertx vertx, HttpServer server, java.util.concurrent.atomic.AtomicInteger requests) {
        this.vertx = vertx;
        this.server = server;
        this.requests = requests;
    }

    public static OriginServer start(Vertx vertx) {
        java.util.concurrent.atomic.AtomicInteger requests = new java.util.concurrent.atomic.AtomicInteger();
        HttpServer server = vertx.createHttpServer().requestHandler(r -> {
            requests.incrementAndGet();
            handle(r);
        });
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().join();
        return new OriginServer(vertx, server, requests);
    }

    /** Requests this origin has received. */
    public int requests() {
        return requests.get();
    }

    public int port() {
        return server.actualPort();
    }

    public String url() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    private static void handle(HttpServerRequest req) {
        String path = req.path();
        switch (path) {
            case "/text" -> req.response().putHeader("content-type", "text/plain;charset=utf-8")
                    .putHeader("x-origin-header", "o").end("origin text");
            case "/echo" -> req.body().onSuccess(body -> {
                JsonObject headers = new JsonObject();
                req.headers().forEach(h -> headers.put(h.getKey().toLowerCase(java.util.Locale.ROOT), h.getValue()));
                req.response().putHeader("content-type", "application/json").end(new JsonObject()
                        .put("method", req.method().name()).put("path", req.uri()).put("headers", headers)
                        .put("body", body.toString()).encode());
            });
            case "/redirect" -> {
                String status = req.getParam("status");
                req.response().setStatusCode(status == null ? 302 : Integer.parseInt(status))
                        .putHeader("location", req.getParam("to")).end();
            }
            case "/stream" -> {
                var resp = req.response().setChunked(true).putHeader("content-type", "text/plain");
                Vertx v = Vertx.currentContext().owner();
                resp.write("s0;");
                v.setTimer(5, a -> {
                    resp.write("s1;");
                    v.setTimer(5, b -> resp.end("s2;"));
                });
            }
            case "/events" -> events(req);
            case "/slow" -> Vertx.currentContext().owner().setTimer(2000, t -> {
                if (!req.response().closed()) {
                    req.response().end("slow");
                }
            });
            default -> {
                if (path.startsWith("/status/")) {
                    int code = Integer.parseInt(path.substring("/status/".length()));
                    req.response().setStatusCode(code).end("status " + code);
                } else {
                    req.response().setStatusCode(404).end("no route " + path);
                }
            }
        }
    }

    // An event stream for EventSource: the first connection sends two events and ends (the client
    // reconnects); a reconnection (with Last-Event-ID) gets one event naming the id and stays open.
    private static void events(HttpServerRequest req) {
        var resp = req.response().setChunked(true).putHeader("content-type", "text/event-stream; charset=utf-8");
        String last = req.getHeader("last-event-id");
        if (last == null) {
            resp.end("retry: 10\nid: 1\nevent: greet\ndata: accept=" + req.getHeader("accept") + " cache=" + req.getHeader("cache-control")
                    + "\n\n: a comment\ndata: second\ndata: line\n\n");
        } else {
            resp.write("data: again after " + last + "\n\n");
        }
    }

    @Override
    public void close() {
        server.close().toCompletionStage().toCompletableFuture().join();
    }
}
