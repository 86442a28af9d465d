package dev.cellgate.js.graal.host;

import dev.cellgate.core.spi.js.Body;
import dev.cellgate.js.graal.instance.JsEvent;
import dev.cellgate.js.graal.instance.JsInstance;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import org.graalvm.polyglot.Value;

/**
 * One outbound {@code fetch()}, redirects included, following the Fetch standard's rules: at most
 * {@link #MAX_REDIRECTS}; 303 (and 301/302 after a POST) turn into a body-less GET; a streamed
 * body cannot be replayed, so a redirect that would resend it fails. {@code redirect: "manual"}
 * returns the 3xx response itself (as workerd does); {@code "error"} fails.
 *
 * <p>The result reaches JavaScript through {@code callback}, posted to the instance's executor:
 * {@code callback(status, statusText, headerLines, url, redirected, body)}, {@code callback(-1, message)}
 * for a network failure, or {@code callback(-2, message)} when the egress policy refused the destination
 * (SPEC §19: checked on the resolved address of every hop, redirects included).
 */
final class OutboundFetch {
    static final int MAX_REDIRECTS = 20;
    private static final Set<String> NOT_FORWARDED = Set.of("host", "content-length", "transfer-encoding", "connection", "keep-alive");
    private static final Set<String> BODY_HEADERS = Set.of("content-type", "content-encoding", "content-language", "content-location");

    private final OutboundHttp http;
    private final JsInstance instance;
    private final JsEvent event;
    private final Value callback;
    private final String redirectMode;
    private final AtomicBoolean settled = new AtomicBoolean();
    private String method;
    private String url;
    private List<Map.Entry<String, String>> headers;
    private Body body;
    private int redirects;
    private volatile HttpClientRequest current;
    private volatile boolean aborted;

    OutboundFetch(OutboundHttp http, JsInstance instance, JsEvent event, Value callback,
                  String method, String url, List<Map.Entry<String, String>> headers, Body body, String redirectMode) {
        this.http = http;
        this.instance = instance;
        this.event = event;
        this.callback = callback;
        this.method = method;
        this.url = url;
        this.headers = headers;
        this.body = body;
        this.redirectMode = redirectMode;
    }

    /** Each hop (the first request, every redirect) is judged by the egress policy on the address it connects to. */
    void start() {
        URI u;
        try {
            u = URI.create(url);
        } catch (IllegalArgumentException e) {
            fail(new IllegalStateException("fetch: invalid URL " + url));
            return;
        }
        String host = u.getHost();
        if (host == null) {
            fail(new IllegalStateException("fetch: " + url + " names no host"));
            return;
        }
        int port = u.getPort() >= 0 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
        http.destination(host, port).onSuccess(to -> connect(host, port, to)).onFailure(this::fail);
    }

    private void connect(String host, int port, java.net.InetSocketAddress to) {
        if (aborted) {
            return;
        }
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.valueOf(method))
                .setAbsoluteURI(url)
                .setServer(io.vertx.core.net.SocketAddress.inetSocketAddress(to)) // pinned to the address judged
                .setFollowRedirects(false)
                .setIdleTimeout(OutboundHttp.IDLE_TIMEOUT_MS);
        http.client().request(options).onSuccess(req -> {
            current = req;
            if (aborted) {
                req.reset();
                return;
            }
            String refused = http.connectedRefusal(host, req.connection() == null ? null : req.connection().remoteAddress(), port);
            if (refused != null) {
                req.reset();
                fail(new OutboundHttp.EgressRefusedException(refused));
                return;
            }
            for (Map.Entry<String, String> h : headers) {
                if (!NOT_FORWARDED.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                    req.headers().add(h.getKey(), h.getValue());
                }
            }
            req.response().onSuccess(resp -> onResponse(req, resp)).onFailure(this::fail);
            writeBody(req);
        }).onFailure(this::fail);
    }

    private void writeBody(HttpClientRequest req) {
        switch (body) {
            case Body.Empty e -> req.end();
            case Body.Bytes b -> req.end(Buffer.buffer(b.data()));
            case Body.Stream s -> {
                if (s.length() >= 0) {
                    req.putHeader("content-length", Long.toString(s.length()));
                } else {
                    req.setChunked(true);
                }
                s.publisher().subscribe(new RequestBodyWriter(req));
            }
        }
    }

    private void onResponse(HttpClientRequest req, HttpClientResponse resp) {
        resp.pause();
        int status = resp.statusCode();
        String location = resp.getHeader("location");
        boolean isRedirect = (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) && location != null;
        if (!isRedirect || "manual".equals(redirectMode)) {
            deliver(req, resp);
            return;
        }
        resp.resume();
        if ("error".equals(redirectMode)) {
            fail(new IllegalStateException("fetch: " + url + " redirected (" + status + ") and the request's redirect mode is 'error'"));
            return;
        }
        if (++redirects > MAX_REDIRECTS) {
            fail(new IllegalStateException("fetch: too many redirects (more than " + MAX_REDIRECTS + ") starting at " + url));
            return;
        }
        String next;
        try {
            next = URI.create(url).resolve(location.trim()).toString();
        } catch (IllegalArgumentException e) {
            fail(new IllegalStateException("fetch: invalid redirect location '" + location + "'"));
            return;
        }
        boolean toGet = (status == 303 && !"HEAD".equals(method)) || ((status == 301 || status == 302) && "POST".equals(method));
        if (toGet) {
            method = "GET";
            body = Body.EMPTY;
            headers = without(headers, BODY_HEADERS);
        } else if (body instanceof Body.Stream) {
            fail(new IllegalStateException("fetch: cannot follow a " + status + " redirect because the request body was a stream"));
            return;
        }
        if (!sameOrigin(url, next)) {
            headers = without(headers, Set.of("authorization"));
        }
        url = next;
        start();
    }

    private void deliver(HttpClientRequest req, HttpClientResponse resp) {
        if (!settled.compareAndSet(false, true)) {
            resp.resume();
            return;
        }
        List<Map.Entry<String, String>> respHeaders = new ArrayList<>();
        resp.headers().forEach(h -> respHeaders.add(Map.entry(h.getKey().toLowerCase(Locale.ROOT), h.getValue())));
        String lines = HeaderLines.encode(respHeaders);
        boolean wasRedirected = redirects > 0;
        String finalUrl = url;
        ReadStreamPublisher publisher = new ReadStreamPublisher(resp, () -> req.reset());
        instance.post(event, () -> callback.executeVoid(resp.statusCode(), resp.statusMessage(), lines, finalUrl, wasRedirected,
                new InboundStream(instance, event, publisher)));
    }

    void fail(Throwable t) {
        if (!settled.compareAndSet(false, true)) {
            return;
        }
        if (t instanceof OutboundHttp.EgressRefusedException) {
            // -2: refused by the egress policy, not a network failure (fetch.js rejects with this message as is)
            String message = "fetch " + url + ": " + t.getMessage();
            instance.post(event, () -> callback.executeVoid(-2, message));
            return;
        }
        String message = t.getMessage() == null ? t.toString() : t.getMessage();
        instance.post(event, () -> callback.executeVoid(-1, message));
    }

    void abort() {
        aborted = true;
        settled.set(true);
        HttpClientRequest req = current;
        if (req != null) {
            req.reset();
        }
    }

    private static List<Map.Entry<String, String>> without(List<Map.Entry<String, String>> headers, Set<String> names) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        for (Map.Entry<String, String> h : headers) {
            if (!names.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                out.add(h);
            }
        }
        return out;
    }

    private static boolean sameOrigin(String a, String b) {
        URI x = URI.create(a);
        URI y = URI.create(b);
        return String.valueOf(x.getScheme()).equalsIgnoreCase(String.valueOf(y.getScheme()))
                && String.valueOf(x.getHost()).equalsIgnoreCase(String.valueOf(y.getHost())) && x.getPort() == y.getPort();
    }

    /** Streams a request body into Vert.x, one chunk at a time, waiting for the write queue to drain. */
    private final class RequestBodyWriter implements Flow.Subscriber<ByteBuffer> {
        private final HttpClientRequest req;
        private Flow.Subscription subscription;

        RequestBodyWriter(HttpClientRequest req) {
            this.req = req;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(1);
        }

        @Override
        public void onNext(ByteBuffer item) {
            byte[] b = new byte[item.remaining()];
            item.get(b);
            req.write(Buffer.buffer(b));
            if (req.writeQueueFull()) {
                req.drainHandler(v -> subscription.request(1));
            } else {
                subscription.request(1);
            }
        }

        @Override
        public void onError(Throwable t) {
            req.reset(0, t);
            fail(t);
        }

        @Override
        public void onComplete() {
            req.end();
        }
    }
}
