package dev.cellgate.gateway.faults;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * One client connection of a {@link FaultProxy}: reads each request whole, asks the plan what to
 * do, and does it. The request is read completely before anything is decided, so a dropped or
 * reset request never leaves a half-sent body upstream: a write is either applied whole or not
 * sent at all, and the proxy knows which.
 */
final class ProxyConnection implements Runnable {
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
    /** How long a silently dropped answer holds the connection at most (the node's own timeout is shorter). */
    private static final long SILENT_HOLD_MS = 120_000;

    private final FaultProxy proxy;
    private final Socket client;
    private Socket upstream;
    private InputStream upIn;
    private OutputStream upOut;

    ProxyConnection(FaultProxy proxy, Socket client) {
        this.proxy = proxy;
        this.client = client;
    }

    /** The upstream's answer to one request, raw. */
    private record Answer(HttpWire.Head head, byte[] body) {
    }

    @Override
    public void run() {
        proxy.track(client, true);
        try {
            InputStream in = new BufferedInputStream(client.getInputStream());
            OutputStream out = client.getOutputStream();
            while (!proxy.closed()) {
                HttpWire.Head req = HttpWire.readHead(in);
                if (req == null) {
                    break;
                }
                if ("100-continue".equalsIgnoreCase(req.header("expect"))) {
                    out.write(CONTINUE); // the body is needed before any decision; the upstream's own 100 is skipped
                    out.flush();
                }
                byte[] body = HttpWire.readRequestBody(in, req);
                proxy.stats().arrived(System.currentTimeMillis());
                S3Call call = S3Call.of(req);
                FaultPlan.Decision d = proxy.plan().decide(call);
                proxy.stats().acted(call, d.action());
                proxy.stats().sent(call, body);
                if (d.delayMs() > 0) {
                    Thread.sleep(d.delayMs());
                }
                if (!handle(req, body, call, d, out)) {
                    break; // after "Connection: close" or a fault (a reset socket is already closed)
                }
            }
            closeQuietly(client);
        } catch (IOException | RuntimeException e) {
            reset(client); // a broken exchange on either side: the node sees what a real network would show
        } catch (InterruptedException e) {
            reset(client);
            Thread.currentThread().interrupt();
        } finally {
            proxy.track(client, false);
            if (upstream != null) {
                closeQuietly(upstream);
            }
        }
    }

    /** Carries out one decision; false when the connection is finished. */
    private boolean handle(HttpWire.Head req, byte[] body, S3Call call, FaultPlan.Decision d, OutputStream out)
            throws IOException, InterruptedException {
        switch (d.action()) {
            case BLACKHOLE -> {
                proxy.logFault(call, d, "");
                hold(() -> proxy.plan().cutOff(), Long.MAX_VALUE);
                reset(client);
                return false;
            }
            case RESET -> {
                proxy.logFault(call, d, "");
                reset(client);
                return false;
            }
            case THROTTLE_503, THROTTLE_429 -> {
                proxy.logFault(call, d, "");
                out.write(throttled(d.action() == FaultPlan.Action.THROTTLE_429, call.method().equals("HEAD")));
                out.flush();
                return !req.wantsClose();
            }
            case SERVER_ERROR_500 -> {
                proxy.logFault(call, d, "");
                out.write(internalError(call.method().equals("HEAD")));
                out.flush();
                return !req.wantsClose();
            }
            default -> {
                Answer a;
                try {
                    a = exchange(req, body, call.method());
                } catch (IOException e) {
                    proxy.stats().upstreamFailed();
                    proxy.logFault(call, d, "upstream failed: " + e);
                    reset(client);
                    return false;
                }
                boolean answered = d.action() == FaultPlan.Action.FORWARD;
                proxy.witness().observe(call, req, body, a.head().status(), proxy.name(), answered);
                if (answered) {
                    proxy.stats().forwarded(a.head().status());
                    out.write(a.head().raw());
                    out.write(a.body());
                    out.flush();
                    return !(req.wantsClose() || a.head().wantsClose());
                }
                proxy.stats().withheld(call, a.head().status());
                proxy.logFault(call, d, "upstream answered " + a.head().status());
                if (d.action() == FaultPlan.Action.SERVER_ERROR_500_AFTER_APPLYING) {
                    out.write(internalError(call.method().equals("HEAD")));
                    out.flush();
                    return !req.wantsClose();
                }
                if (d.action() == FaultPlan.Action.DROP_RESPONSE_SILENT) {
                    hold(() -> true, SILENT_HOLD_MS);
                }
                reset(client);
                return false;
            }
        }
    }

    private Answer exchange(HttpWire.Head req, byte[] body, String method) throws IOException {
        if (upstream == null || upstream.isClosed()) {
            upstream = new Socket(proxy.upstream().getAddress(), proxy.upstream().getPort());
            upstream.setSoTimeout(120_000);
            upIn = new BufferedInputStream(upstream.getInputStream());
            upOut = upstream.getOutputStream();
        }
        upOut.write(req.raw());
        upOut.write(body);
        upOut.flush();
        HttpWire.Head head = HttpWire.readHead(upIn);
        while (head != null && head.status() / 100 == 1) {
            head = HttpWire.readHead(upIn); // an interim 100 Continue: the client already had ours
        }
        if (head == null) {
            closeQuietly(upstream);
            throw new IOException("upstream closed the connection without answering " + req.startLine());
        }
        byte[] rb = HttpWire.readResponseBody(upIn, head, method);
        boolean delimitedByClose = !head.chunked() && head.contentLength() < 0 && !method.equals("HEAD");
        if (head.wantsClose() || req.wantsClose() || delimitedByClose) {
            closeQuietly(upstream);
        }
        return new Answer(head, rb);
    }

    /** Keeps the client connection open without answering while {@code still} holds (at most {@code maxMs}). */
    private void hold(java.util.function.BooleanSupplier still, long maxMs) throws IOException, InterruptedException {
        long end = maxMs == Long.MAX_VALUE ? Long.MAX_VALUE : System.currentTimeMillis() + maxMs;
        client.setSoTimeout(100);
        InputStream in = client.getInputStream();
        byte[] sink = new byte[4096];
        while (still.getAsBoolean() && !proxy.closed() && System.currentTimeMillis() < end) {
            try {
                if (in.read(sink) < 0) {
                    return; // the node gave up and closed
                }
            } catch (SocketTimeoutException e) {
                // still waiting
            }
        }
    }

    private static byte[] throttled(boolean tooMany, boolean head) {
        return s3Error(tooMany ? "429 Too Many Requests" : "503 Slow Down", tooMany ? "TooManyRequests" : "SlowDown",
                "Please reduce your request rate.", head);
    }

    private static byte[] internalError(boolean head) {
        return s3Error("500 Internal Server Error", "InternalError", "We encountered an internal error. Please try again.", head);
    }

    private static byte[] s3Error(String status, String code, String message, boolean head) {
        String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code
                + "</Code><Message>" + message + "</Message><RequestId>fault-proxy</RequestId></Error>";
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        String headers = "HTTP/1.1 " + status + "\r\nContent-Type: application/xml\r\nContent-Length: " + b.length
                + "\r\nx-amz-request-id: fault-proxy\r\n\r\n";
        byte[] h = headers.getBytes(StandardCharsets.ISO_8859_1);
        if (head) {
            return h;
        }
        byte[] all = new byte[h.length + b.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(b, 0, all, h.length, b.length);
        return all;
    }

    /** Closes with SO_LINGER 0: the peer sees a connection reset, not an orderly end. */
    static void reset(Socket s) {
        try {
            s.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // already closed
        }
        closeQuietly(s);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }
}
