package dev.cellgate.gateway.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A stand-in for a peer node on loopback: what a real node forwards to it is recorded, and each
 * request is answered by the next scripted {@link Answer} (a forged or a well-signed one). A real
 * node forwards here once the bucket names this peer as a cell's owner (see {@link #advertise()}).
 */
final class FakePeer implements AutoCloseable {
    /** One request as the peer received it: path and query, headers (lower-case names), body. */
    record Received(String method, String pathAndQuery, Map<String, List<String>> headers, byte[] body) {
        String header(String name) {
            List<String> v = headers.get(name);
            return v == null || v.isEmpty() ? null : v.get(0);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** An answer: status, headers, body. */
    record Answer(int status, Map<String, String> headers, byte[] body) {
        static Answer of(int status, Map<String, String> headers, String body) {
            return new Answer(status, headers, body.getBytes(StandardCharsets.UTF_8));
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<Function<Received, Answer>> script = new ConcurrentLinkedQueue<>();
    private volatile Function<Received, Answer> otherwise = r -> Answer.of(500, Map.of(), "fake peer: no answer scripted");

    private FakePeer(HttpServer server) {
        this.server = server;
    }

    static FakePeer start() throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        FakePeer p = new FakePeer(s);
        s.createContext("/", p::handle);
        s.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        s.start();
        return p;
    }

    String advertise() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    /** Answers the next request with {@code answer} (then the following scripted one, then the default). */
    FakePeer then(Function<Received, Answer> answer) {
        script.add(answer);
        return this;
    }

    /** Answers every request beyond the script with {@code answer}. */
    FakePeer otherwise(Function<Received, Answer> answer) {
        this.otherwise = answer;
        return this;
    }

    List<Received> received() {
        return new ArrayList<>(received);
    }

    void reset() {
        received.clear();
        script.clear();
    }

    private void handle(HttpExchange x) {
        try (x) {
            Map<String, List<String>> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            x.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), List.copyOf(v)));
            String q = x.getRequestURI().getRawQuery();
            Received r = new Received(x.getRequestMethod(), x.getRequestURI().getRawPath() + (q == null ? "" : "?" + q), headers,
                    x.getRequestBody().readAllBytes());
            received.add(r);
            Function<Received, Answer> next = script.poll();
            Answer a = (next == null ? otherwise : next).apply(r);
            a.headers().forEach((k, v) -> x.getResponseHeaders().add(k, v));
            x.sendResponseHeaders(a.status(), a.body().length == 0 ? -1 : a.body().length);
            if (a.body().length > 0) {
                x.getResponseBody().write(a.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
