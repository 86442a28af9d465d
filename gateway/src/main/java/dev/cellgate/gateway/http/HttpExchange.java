package dev.cellgate.gateway.http;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.gateway.http.body.ReadStreamPublisher;
import dev.cellgate.gateway.http.body.ResponseBodySubscriber;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Converts between Vert.x HTTP and the engine's {@link HttpRequestData}/{@link HttpResponseData}.
 * Small bodies with a known length are read whole (one buffer, no stream machinery); others are
 * streamed with back-pressure. Used by the public listener and by peer forwarding.
 */
public final class HttpExchange {
    /** Bodies up to this size with a Content-Length are buffered; larger or chunked ones stream. */
    static final long BUFFER_LIMIT = 256 * 1024;
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "transfer-encoding", "upgrade",
            "proxy-connection", "te", "trailer", "content-length");

    private HttpExchange() {
    }

    /**
     * A WebSocket upgrade in the engine's form, without touching its stream: the request stays
     * paused until the Worker answers, then either becomes a WebSocket ({@code toWebSocket()}
     * reads it) or is resumed for an ordinary response.
     */
    public static HttpRequestData upgrade(HttpServerRequest req, String requestId) {
        List<Map.Entry<String, String>> headers = new ArrayList<>(req.headers().size());
        for (Map.Entry<String, String> h : req.headers()) {
            headers.add(Map.entry(h.getKey().toLowerCase(java.util.Locale.ROOT), h.getValue()));
        }
        return new HttpRequestData(req.method().name(), absoluteUrl(req), headers, Body.EMPTY, requestId);
    }

    /** A WebSocket upgrade request (HTTP/1.1 {@code Upgrade: websocket}). */
    public static boolean isUpgrade(HttpServerRequest req) {
        String up = req.getHeader("upgrade");
        return up != null && up.equalsIgnoreCase("websocket") && req.version() != io.vertx.core.http.HttpVersion.HTTP_2;
    }

    /**
     * Reads the request into the engine's form. Completes with {@link TooLarge} when the declared
     * length is over {@code maxBody}. The request must be paused by the caller on arrival.
     */
    public static CompletableFuture<HttpRequestData> read(HttpServerRequest req, String requestId, long maxBody,
                                                          java.util.concurrent.atomic.AtomicBoolean tooLarge) {
        List<Map.Entry<String, String>> headers = new ArrayList<>(req.headers().size());
        for (Map.Entry<String, String> h : req.headers()) {
            headers.add(Map.entry(h.getKey().toLowerCase(java.util.Locale.ROOT), h.getValue()));
        }
        String url = absoluteUrl(req);
        String method = req.method().name();
        String lenHeader = req.getHeader("content-length");
        long declared = -1;
        if (lenHeader != null) {
            try {
                declared = Long.parseLong(lenHeader.trim());
            } catch (NumberFormatException e) {
                return CompletableFuture.failedFuture(new BadRequest("invalid Content-Length '" + lenHeader + "'"));
            }
        }
        if (declared > maxBody) {
            return CompletableFuture.failedFuture(new TooLarge(maxBody));
        }
        boolean chunked = "chunked".equalsIgnoreCase(req.getHeader("transfer-encoding"));
        if (declared == 0 || (declared < 0 && !chunked) || req.method() == HttpMethod.GET || req.method() == HttpMethod.HEAD) {
            req.resume();
            return CompletableFuture.completedFuture(new HttpRequestData(method, url, headers, Body.EMPTY, requestId));
        }
        if (declared > 0 && declared <= BUFFER_LIMIT) {
            CompletableFuture<HttpRequestData> f = new CompletableFuture<>();
            req.resume();
            req.body().onComplete(ar -> {
                if (ar.succeeded()) {
                    f.complete(new HttpRequestData(method, url, headers, Body.of(ar.result().getBytes()), requestId));
                } else {
                    f.completeExceptionally(ar.cause());
                }
            });
            return f;
        }
        return CompletableFuture.completedFuture(new HttpRequestData(method, url, headers,
                new Body.Stream(new ReadStreamPublisher(req, maxBody, tooLarge), declared), requestId));
    }

    /** Writes the engine's response. Call on the request's context. */
    public static void write(HttpServerResponse resp, Context ctx, HttpResponseData r) {
        resp.setStatusCode(r.status());
        if (r.statusText() != null && !r.statusText().isEmpty()) {
            resp.setStatusMessage(r.statusText());
        }
        MultiMap out = resp.headers();
        String declaredLength = null;
        for (Map.Entry<String, String> h : r.headers()) {
            String name = h.getKey().toLowerCase(java.util.Locale.ROOT);
            if (name.equals("content-length")) {
                declaredLength = h.getValue();
            }
            if (!HOP_BY_HOP.contains(name)) {
                out.add(h.getKey(), h.getValue());
            }
        }
        switch (r.body()) {
            case Body.Empty e -> resp.end();
            case Body.Bytes b -> resp.end(Buffer.buffer(b.data()));
            case Body.Stream s -> {
                long len = s.length() >= 0 ? s.length() : parseLength(declaredLength);
                if (len >= 0) {
                    resp.putHeader("content-length", Long.toString(len));
                } else {
                    resp.setChunked(true);
                }
                s.publisher().subscribe(new ResponseBodySubscriber(resp, ctx));
            }
        }
    }

    private static long parseLength(String v) {
        if (v == null) {
            return -1;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static String absoluteUrl(HttpServerRequest req) {
        String host = req.getHeader("host");
        if (host == null || host.isBlank()) {
            host = req.localAddress().hostAddress() + ":" + req.localAddress().port();
        }
        return (req.isSSL() ? "https://" : "http://") + host + req.uri();
    }

    /** The declared body is over the limit: answer 413. */
    public static final class TooLarge extends RuntimeException {
        public TooLarge(long max) {
            super("request body exceeds " + max + " bytes (CELLD_MAX_REQUEST_BODY_BYTES)");
        }
    }

    /** The request itself is malformed: answer 400. */
    public static final class BadRequest extends RuntimeException {
        public BadRequest(String message) {
            super(message);
        }
    }
}
