package dev.cellgate.deploy.dev;

import dev.cellgate.deploy.cli.CommandException;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The listener a developer talks to ({@code 127.0.0.1:<--port>}): each request is passed to the dev
 * node's public listener as it came (method, URI, headers, streamed body) and answered with the
 * node's response as it comes (streamed too), then printed with its status and time. The node
 * has no access log of its own; this is where dev sees every request without changing the node.
 * WebSocket upgrades are refused with 501 naming the node's own port (not proxied yet).
 */
final class DevProxy implements AutoCloseable {
    /** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection and are not passed on. */
    private static final Set<String> HOP = Set.of("connection", "keep-alive", "proxy-connection", "proxy-authenticate",
            "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade");

    private final Vertx vertx;
    private final HttpServer server;

    private DevProxy(Vertx vertx, HttpServer server) {
        this.vertx = vertx;
        this.server = server;
    }

    /** Listens on {@code host:port} (port 0: any free one) and passes every request to the node on {@code nodePort}. */
    static DevProxy start(String host, int port, int nodePort, DevConsole console) {
        Vertx vertx = Vertx.vertx();
        // an unexpected failure in a relay is shown like any other problem, not as a JUL stack trace
        vertx.exceptionHandler(e -> console.problem("dev listener: " + e));
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(nodePort)
                .setKeepAlive(true).setDecompressionSupported(false), new PoolOptions().setHttp1MaxSize(32));
        try {
            HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost(host).setPort(port).setCompressionSupported(false))
                    .requestHandler(req -> pass(req, client, nodePort, console))
                    .listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            return new DevProxy(vertx, server);
        } catch (Exception e) {
            vertx.close();
            Throwable c = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw CommandException.failed("cannot listen on " + host + ":" + port + ": " + c.getMessage()
                    + (port != 0 ? " (is another dev or server on that port? choose another with --port N)" : ""), c);
        }
    }

    int port() {
        return server.actualPort();
    }

    private static void pass(HttpServerRequest req, HttpClient client, int nodePort, DevConsole console) {
        long started = System.nanoTime();
        String method = req.method().name();
        String uri = req.uri();
        if ("websocket".equalsIgnoreCase(req.getHeader("upgrade"))) {
            req.response().setStatusCode(501).putHeader("content-type", "text/plain;charset=UTF-8")
                    .end("deploy-tool dev does not pass WebSockets on yet; connect to the node itself at ws://127.0.0.1:" + nodePort + uri + "\n");
            console.request(method, uri, 501, ms(started), "(WebSocket: use the node's port " + nodePort + ")");
            return;
        }
        req.pause();
        boolean hasBody = req.headers().contains("content-length") || req.headers().contains("transfer-encoding");
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        req.headers().forEach(h -> {
            if (!HOP.contains(h.getKey().toLowerCase(java.util.Locale.ROOT))) {
                headers.add(h.getKey(), h.getValue());
            }
        });
        client.request(new RequestOptions().setMethod(req.method()).setURI(uri).setHeaders(headers))
                .compose(out -> hasBody ? out.send(req) : out.send())
                .onSuccess(in -> answer(req, in, started, console))
                .onFailure(e -> {
                    HttpServerResponse resp = req.response();
                    if (!resp.headWritten()) {
                        resp.setStatusCode(502).putHeader("content-type", "text/plain;charset=UTF-8")
                                .end("deploy-tool dev: the node did not answer: " + e.getMessage() + "\n");
                    } else {
                        resp.reset();
                    }
                    console.request(method, uri, 502, ms(started), "(the node did not answer: " + e.getMessage() + ")");
                });
    }

    private static void answer(HttpServerRequest req, HttpClientResponse in, long started, DevConsole console) {
        HttpServerResponse resp = req.response().setStatusCode(in.statusCode()).setStatusMessage(in.statusMessage());
        in.headers().forEach(h -> {
            if (!HOP.contains(h.getKey().toLowerCase(java.util.Locale.ROOT))) {
                resp.headers().add(h.getKey(), h.getValue());
            }
        });
        boolean bodiless = req.method() == io.vertx.core.http.HttpMethod.HEAD || in.statusCode() == 204 || in.statusCode() == 304;
        if (!in.headers().contains("content-length") && !bodiless) {
            resp.setChunked(true);
        }
        // pumped by hand, not pipeTo: a client that goes away mid-body must end the relay quietly, not fail a write
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        in.handler(chunk -> {
            if (resp.ended() || resp.closed()) {
                return;
            }
            resp.write(chunk);
            if (resp.writeQueueFull()) {
                in.pause();
                resp.drainHandler(v -> in.resume());
            }
        });
        in.endHandler(v -> {
            if (!resp.ended() && !resp.closed()) {
                resp.end();
            }
            if (done.compareAndSet(false, true)) {
                console.request(req.method().name(), req.uri(), in.statusCode(), ms(started), null);
            }
        });
        in.exceptionHandler(e -> {
            if (!resp.ended() && !resp.closed()) {
                resp.reset();
            }
            if (done.compareAndSet(false, true)) {
                console.request(req.method().name(), req.uri(), in.statusCode(), ms(started), "(the node's response broke off: " + e.getMessage() + ")");
            }
        });
        resp.closeHandler(v -> {
            if (done.compareAndSet(false, true)) {
                boolean cut = !resp.ended();
                if (cut) {
                    in.request().reset(); // nobody reads the rest: free the node's side too
                }
                console.request(req.method().name(), req.uri(), in.statusCode(), ms(started), cut ? "(the client went away before the end)" : null);
            }
        });
    }

    private static long ms(long started) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    }

    @Override
    public void close() {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // closing on the way out: nothing left to report to
        }
    }
}
