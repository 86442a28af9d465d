package dev.cellgate.store.s3;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP server that answers like a failing S3: a scripted sequence of statuses and S3
 * error codes (throttling, server errors, preconditions), counting every request it receives.
 * No real S3 server can be told to throttle on cue; this is the fault injector for the retry and
 * "no amplification" checks. Answers past the script repeat its last entry.
 */
final class FaultyS3Server implements AutoCloseable {
    /** One scripted answer; status 0 means "never answer" (the client times out). */
    record Answer(int status, String code, String body) {
        static Answer error(int status, String code) {
            return new Answer(status, code, null);
        }

        static Answer ok(String body) {
            return new Answer(200, null, body);
        }

        static Answer silence() {
            return new Answer(0, null, null);
        }
    }

    private final HttpServer server;
    private final List<Answer> script;
    private final AtomicInteger requests = new AtomicInteger();
    private final List<String> methods = new CopyOnWriteArrayList<>();

    FaultyS3Server(Answer... script) throws IOException {
        this.script = List.of(script);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "faulty-s3");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", this::answer);
        server.start();
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    int requests() {
        return requests.get();
    }

    List<String> methods() {
        return methods;
    }

    private void answer(HttpExchange ex) throws IOException {
        int n = requests.getAndIncrement();
        methods.add(ex.getRequestMethod());
        ex.getRequestBody().readAllBytes();
        Answer a = script.get(Math.min(n, script.size() - 1));
        if (a.status() == 0) {
            return; // hold the exchange open: the client's attempt timeout must fire
        }
        byte[] body;
        if (a.code() != null) {
            body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + a.code() + "</Code><Message>scripted "
                    + a.code() + "</Message><RequestId>r" + n + "</RequestId></Error>").getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/xml");
        } else {
            body = a.body() == null ? new byte[0] : a.body().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("ETag", "\"etag-" + n + "\"");
            ex.getResponseHeaders().add("Content-Type", "application/octet-stream");
        }
        ex.getResponseHeaders().add("x-amz-request-id", "r" + n);
        // Every attempt on its own connection: a kept-alive connection that this server closes
        // while the client sends its next attempt on it would read as an ambiguous write for a
        // reason the script never asked for (seen once in CI: "connection was closed during the
        // request" where the script said 503 SlowDown).
        ex.getResponseHeaders().add("Connection", "close");
        if (ex.getRequestMethod().equals("HEAD")) {
            ex.sendResponseHeaders(a.status(), -1);
        } else {
            ex.sendResponseHeaders(a.status(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                ex.getResponseBody().write(body);
            }
        }
        ex.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
