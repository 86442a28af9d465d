package dev.cellgate.gateway.peer;

import dev.cellgate.core.cell.ForwardFailedException;
import dev.cellgate.core.cell.Forwarder;
import dev.cellgate.core.fleet.FleetView;
import dev.cellgate.core.fleet.PeerSignature;
import dev.cellgate.core.fleet.PeerSignature.Answer;
import dev.cellgate.core.fleet.PeerSignature.Envelope;
import dev.cellgate.core.fleet.PeerSignature.Signed;
import dev.cellgate.core.logic.ForwardFailure;
import dev.cellgate.core.logic.ForwardFailure.Kind;
import dev.cellgate.core.logic.WakeEntryVerdict;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.time.Ticker;
import dev.cellgate.gateway.http.body.BodyCollector;
import dev.cellgate.gateway.http.body.ReadStreamPublisher;
import dev.cellgate.gateway.trace.NodeTracing;
import dev.cellgate.gateway.trace.OpenSpan;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The sending half of the peer protocol: forwards a cell call to the owner's advertised internal
 * address, signed (the forwarded envelope included), and trusts only signed answers. Every
 * failure says what happened ({@link ForwardFailedException} with its {@link Kind}): nothing sent
 * (no live lease, no connection), a signed refusal, or a failure after the request left — the
 * router re-sends only what provably did not run.
 */
public final class PeerClient implements Forwarder {
    /** A lease read this recently is good enough to find a peer's address. */
    static final long LEASE_MAX_AGE_MS = 1000;

    private final HttpClient http;
    private final Supplier<PeerAuth> auth;
    private final String self;
    private final FleetView fleet;
    private final long maxBody;
    private final java.util.function.LongSupplier responseTimeoutMs;
    /** Signs each request's timestamp: the receiver compares it with its own wall clock (±30 s, SPEC §6). */
    private final Ticker wall;
    private PeerSocketClient sockets;
    private volatile NodeTracing tracing = NodeTracing.off();

    /**
     * @param responseTimeoutMs how long one forwarded event may go without an answer, asked per request (the
     *                          running deployment's limits.cpu_ms may change it)
     * @param longestResponseMs the most {@code responseTimeoutMs} can ever say: the connection's own idle
     *                          timeout, which closes a connection with a request in flight, must not cut earlier
     * @param wall              the wall clock each request's signed timestamp is read from
     */
    public PeerClient(Vertx vertx, Supplier<PeerAuth> auth, String self, FleetView fleet, long maxBody,
                      java.util.function.LongSupplier responseTimeoutMs, long longestResponseMs, Ticker wall) {
        this.http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(2000).setKeepAlive(true)
                .setTcpNoDelay(true).setIdleTimeout((int) Math.max(60, (longestResponseMs + 999) / 1000)),
                new PoolOptions().setHttp1MaxSize(64));
        this.auth = auth;
        this.self = self;
        this.fleet = fleet;
        this.maxBody = maxBody;
        this.responseTimeoutMs = responseTimeoutMs;
        this.wall = wall;
    }

    /** Traces each forwarded fetch (a CLIENT span whose traceparent the owner continues); off by default. */
    public PeerClient tracing(NodeTracing t) {
        this.tracing = t;
        return this;
    }

    /** Tunnels WebSocket upgrades to the owner (without it, an upgrade for a remote cell is refused). */
    public PeerClient sockets(PeerSocketClient client) {
        this.sockets = client;
        return this;
    }

    @Override
    public String placementTarget() {
        return fleet.placementTarget(self);
    }

    @Override
    public CompletableFuture<HttpRequestData> replayable(HttpRequestData request) {
        if (!(request.body() instanceof Body.Stream)) {
            return CompletableFuture.completedFuture(request);
        }
        return BodyCollector.collect(request.body(), maxBody).thenApply(b -> new HttpRequestData(request.method(), request.url(),
                request.headers(), Body.of(b), request.requestId()));
    }

    @Override
    public CompletableFuture<HttpResponseData> fetch(String node, CellIdentity id, HttpRequestData request) {
        if (PeerSocketClient.isUpgrade(request)) {
            if (sockets == null) {
                return CompletableFuture.failedFuture(new StubCallException("this node cannot tunnel WebSockets to " + node, false, null));
            }
            return sockets.connect(node, id, request);
        }
        OpenSpan span = tracing.forward("forward fetch", request.requestId(), node, id.scope());
        CompletableFuture<HttpResponseData> out = BodyCollector.collect(request.body(), maxBody).thenCompose(body -> send(node, id,
                PeerWire.fetchPath(id.scope()) + PeerWire.traceQuery(span.traceparent()),
                body, envelope(request), (resp, answer, check) -> {
                    resp.pause();
                    String len = resp.getHeader("content-length");
                    long length = len == null ? -1 : Long.parseLong(len);
                    VerifiedBody verified = new VerifiedBody(new ReadStreamPublisher(resp, Long.MAX_VALUE), resp::trailers,
                            answer.bodySha256(), check.auth(), check.nonce(), check.mac());
                    Body b;
                    if (length == 0) {
                        resp.resume();
                        if (!verified.matches(PeerSignature.sha256(null))) {
                            return CompletableFuture.failedFuture(new ForwardFailedException(Kind.RESULT_LOST,
                                    "node " + node + " ran the call; its empty answer body does not match its signed digest"));
                        }
                        b = Body.EMPTY;
                    } else {
                        b = new Body.Stream(verified, length);
                    }
                    return CompletableFuture.completedFuture(new HttpResponseData(resp.statusCode(), answer.statusText(),
                            PeerWire.decodeHeaders(answer.headers()), b));
                }));
        if (span != OpenSpan.NONE) {
            out.whenComplete((r, e) -> span.end(r == null ? 0 : r.status(), e));
        }
        return out;
    }

    /** What the owner hands its cell besides the body: exactly what the request's MAC covers. */
    static Envelope envelope(HttpRequestData request) {
        return new Envelope(request.method(), request.url(), PeerWire.encodeHeaders(request.headers()), request.requestId());
    }

    @Override
    public CompletableFuture<byte[]> call(String node, CellIdentity id, String method, byte[] arguments) {
        String path = PeerWire.callPath(id.scope()) + "?method=" + URLEncoder.encode(method, StandardCharsets.UTF_8);
        return send(node, id, path, arguments, Envelope.NONE, (resp, answer, check) -> wholeBody(node, resp, answer));
    }

    @Override
    public CompletableFuture<WakeEntryVerdict.Reply> wake(String node, CellIdentity id, OptionalLong entryMinuteMs) {
        return send(node, id, PeerWire.wakePath(id.scope()) + WakeAnswer.query(entryMinuteMs), new byte[0], Envelope.NONE,
                (resp, answer, check) -> wholeBody(node, resp, answer)
                        .thenApply(b -> WakeAnswer.decode(new String(b, StandardCharsets.UTF_8))));
    }

    @Override
    public CompletableFuture<byte[]> callExport(String node, String key, String op, String pathJson, byte[] arguments) {
        return send(node, PeerWire.exportCallPath(key, op, pathJson), arguments, Envelope.NONE,
                (resp, answer, check) -> wholeBody(node, resp, answer));
    }

    @Override
    public CompletableFuture<Void> releaseExport(String node, String key) {
        return send(node, PeerWire.exportReleasePath(key), new byte[0], Envelope.NONE,
                (resp, answer, check) -> wholeBody(node, resp, answer).thenApply(b -> (Void) null));
    }

    /** The body of a signed "ok", checked against its signed digest: the call ran, so a bad body is a lost result. */
    private static CompletableFuture<byte[]> wholeBody(String node, HttpClientResponse resp, Answer answer) {
        return resp.body().toCompletionStage().toCompletableFuture().handle((b, e) -> {
            if (e != null) {
                throw new ForwardFailedException(Kind.RESULT_LOST, "node " + node + " ran the call; its answer broke off: " + e.getMessage());
            }
            byte[] bytes = b.getBytes();
            if (!PeerSignature.sameHex(PeerSignature.sha256(bytes), answer.bodySha256())) {
                throw new ForwardFailedException(Kind.RESULT_LOST, "node " + node + " ran the call; its answer body does not match its signed digest");
            }
            return bytes;
        });
    }

    /** The request's nonce and the answer's MAC, to check what follows the head. */
    record AnswerCheck(PeerAuth auth, String nonce, String mac) {
    }

    /** Reads a signed "ok" answer. */
    private interface OkReader<T> {
        CompletableFuture<T> read(HttpClientResponse resp, Answer answer, AnswerCheck check);
    }

    private <T> CompletableFuture<T> send(String node, CellIdentity id, String pathNoName, byte[] body, Envelope envelope,
                                          OkReader<T> onOk) {
        String path = pathNoName + (id.name() == null ? ""
                : (pathNoName.contains("?") ? "&" : "?") + "name=" + URLEncoder.encode(id.name(), StandardCharsets.UTF_8));
        return send(node, path, body, envelope, onOk);
    }

    private <T> CompletableFuture<T> send(String node, String path, byte[] body, Envelope envelope, OkReader<T> onOk) {
        PeerAuth a = auth.get();
        return address(fleet, node).thenCompose(hp -> {
            Signed s = a.sign("POST", path, body, self, node, wall.nowMs(), envelope);
            RequestOptions ro = new RequestOptions().setMethod(HttpMethod.POST).setHost(hp[0]).setPort(Integer.parseInt(hp[1]))
                    .setURI(path).setIdleTimeout(responseTimeoutMs.getAsLong());
            PeerWire.putSigned(ro::putHeader, s);
            PeerWire.putEnvelope(ro::putHeader, envelope);
            CompletableFuture<T> out = new CompletableFuture<>();
            http.request(ro).onComplete(rq -> {
                if (rq.failed()) {
                    out.completeExceptionally(unreachable(node, rq.cause()));
                    return;
                }
                rq.result().send(Buffer.buffer(body)).onComplete(ar -> {
                    if (ar.failed()) {
                        out.completeExceptionally(lostAfterSend(node, ar.cause()));
                        return;
                    }
                    HttpClientResponse resp = ar.result();
                    Answer answer = PeerWire.answerOf(resp.statusCode(), resp::getHeader);
                    String mac = resp.getHeader(PeerSignature.H_ANSWER_MAC);
                    if (!a.answerAuthentic(s.nonce(), answer, mac)) {
                        smallText(resp).thenCompose(text -> untrusted(fleet, node, answer, text))
                                .whenComplete((f, e) -> out.completeExceptionally(f));
                        return;
                    }
                    if (PeerWire.OK.equals(answer.result())) {
                        onOk.read(resp, answer, new AnswerCheck(a, s.nonce(), mac)).whenComplete((v, e) -> {
                            if (e != null) {
                                out.completeExceptionally(e);
                            } else {
                                out.complete(v);
                            }
                        });
                        return;
                    }
                    resp.body().onComplete(b -> {
                        if (b.failed() || !PeerSignature.sameHex(PeerSignature.sha256(b.result().getBytes()), answer.bodySha256())) {
                            out.completeExceptionally(new ForwardFailedException(Kind.UNTRUSTED_ANSWER, "node " + node + " answered "
                                    + answer.result() + " (HTTP " + answer.status() + ") but its body did not arrive as signed"));
                            return;
                        }
                        out.completeExceptionally(refusal(node, answer, b.result().toString(StandardCharsets.UTF_8)));
                    });
                });
            });
            return out;
        });
    }

    /** Largest unsigned answer body read for its text; a longer one is not read at all. */
    static final int UNTRUSTED_TEXT_MAX = 16 * 1024;

    /**
     * The text of an answer that cannot be trusted, if it is small: whoever sent it must not make
     * this node buffer a large body. A larger one is not read; its connection is closed.
     */
    private static CompletableFuture<String> smallText(HttpClientResponse resp) {
        String len = resp.getHeader("content-length");
        if (len == null || !len.matches("\\d{1,9}") || Integer.parseInt(len) > UNTRUSTED_TEXT_MAX) {
            resp.request().connection().close();
            return CompletableFuture.completedFuture("");
        }
        return resp.body().toCompletionStage().toCompletableFuture().handle((b, e) -> e == null ? b.toString(StandardCharsets.UTF_8) : "");
    }

    /**
     * The owner's advertised {@code [host, port]}; nothing is sent when its lease is gone or expired
     * (resolving again lets this node take the cell over) or names another protocol version.
     */
    static CompletableFuture<String[]> address(FleetView fleet, String node) {
        return fleet.lease(node, LEASE_MAX_AGE_MS).thenCompose(lease -> {
            if (lease.isEmpty() || !fleet.isLive(lease.get())) {
                return CompletableFuture.failedFuture(new ForwardFailedException(Kind.NO_LIVE_LEASE, "owner " + node + " has no live lease"));
            }
            LeaseRecord l = lease.get();
            if (l.protocol() != PeerAuth.VERSION) {
                return CompletableFuture.failedFuture(new ForwardFailedException(Kind.OTHER_VERSION, "owner " + node
                        + " speaks peer protocol " + l.protocol() + ", this node " + PeerAuth.VERSION
                        + " (mixed versions during a rolling upgrade?)"));
            }
            return CompletableFuture.completedFuture(splitHostPort(l.advertise()));
        });
    }

    /** A signed answer other than "ok": what the owner says happened. */
    static ForwardFailedException refusal(String node, Answer answer, String text) {
        return switch (answer.result()) {
            case PeerWire.NOT_OWNER -> new ForwardFailedException(Kind.NOT_OWNER,
                    "node " + node + " is not the owner (it says " + answer.owner() + ")", answer.owner(), null);
            case PeerWire.DRAINING -> new ForwardFailedException(Kind.DRAINING, "owner " + node + " is draining");
            case PeerWire.UNAVAILABLE -> ForwardFailedException.answered(new StubCallException(text, "1".equals(answer.retryable()), null));
            case PeerWire.EXCEPTION -> ForwardFailedException.answered(new RuntimeException(text));
            case "" -> new ForwardFailedException(Kind.REFUSED, "node " + node + " refused the call: HTTP " + answer.status() + " " + text);
            default -> new ForwardFailedException(Kind.UNTRUSTED_ANSWER,
                    "node " + node + " answered '" + answer.result() + "', which this node does not know");
        };
    }

    /**
     * An answer without a valid MAC. Not acted on — a forged "not owner" must not move the call —
     * except for what can be proven otherwise: a 426 from a node whose lease, read again, names
     * another protocol version (such a node refuses every request of this version at the door).
     */
    static CompletableFuture<ForwardFailedException> untrusted(FleetView fleet, String node, Answer answer, String text) {
        // The text of an unsigned protocol refusal (401 bad signature, 409 replay…) helps the operator;
        // the body of anything else it claims is not passed on.
        boolean refusal = answer.result().isEmpty() && answer.status() >= 400;
        String what = "node " + node + " gave an answer without a valid signature (HTTP " + answer.status()
                + (answer.result().isEmpty() ? "" : ", result '" + clip(answer.result()) + "'")
                + (refusal && !text.isBlank() ? ": " + clip(text) : "") + "): ignored";
        if (!ForwardFailure.unsignedNeedsLease(answer.status(), answer.result())) {
            return CompletableFuture.completedFuture(new ForwardFailedException(Kind.UNTRUSTED_ANSWER, what));
        }
        return fleet.readLease(node).handle((lease, e) -> {
            java.util.OptionalInt protocol = e == null && lease.isPresent()
                    ? java.util.OptionalInt.of(lease.get().protocol()) : java.util.OptionalInt.empty();
            return switch (ForwardFailure.ofUnsigned(answer.status(), answer.result(), protocol, PeerAuth.VERSION)) {
                case VERSION_REFUSED -> new ForwardFailedException(Kind.VERSION_REFUSED, "node " + node + " speaks peer protocol "
                        + protocol.getAsInt() + ", this node " + PeerAuth.VERSION + " (426; mixed versions during a rolling upgrade)");
                default -> new ForwardFailedException(Kind.UNTRUSTED_ANSWER, what);
            };
        });
    }

    private static String clip(String s) {
        String t = s.strip();
        return t.length() > 200 ? t.substring(0, 200) + "…" : t;
    }

    /** No connection could be made: nothing was sent. */
    static ForwardFailedException unreachable(String node, Throwable cause) {
        return new ForwardFailedException(Kind.CONNECT_FAILED, "owner " + node + " unreachable: " + cause.getMessage());
    }

    /** The connection failed after the request went out: the owner may have run it. */
    static ForwardFailedException lostAfterSend(String node, Throwable cause) {
        return new ForwardFailedException(Kind.LOST_AFTER_SEND, "the call reached node " + node
                + " (or may have) and no answer came back: " + cause.getMessage());
    }

    static String[] splitHostPort(String addr) {
        int c = addr.lastIndexOf(':');
        String host = addr.substring(0, c);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new String[] {host, addr.substring(c + 1)};
    }
}
