package dev.cellgate.gateway.peer;

import dev.cellgate.core.cell.Forwarder;
import dev.cellgate.core.cell.RerouteException;
import dev.cellgate.core.fleet.FleetView;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.gateway.http.body.BodyCollector;
import dev.cellgate.gateway.http.body.ReadStreamPublisher;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.ConnectException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The sending half of the peer protocol: forwards a cell call to the owner's advertised
 * internal address, signed. Outcomes that mean "nothing ran there" (not the owner any more,
 * draining, unreachable) become {@link RerouteException}s so the router resolves again: a dead
 * owner's cell is then taken over here, a moved one is followed.
 */
public final class PeerClient implements Forwarder {
    /** A lease read this recently is good enough to find a peer's address. */
    static final long LEASE_MAX_AGE_MS = 1000;

    private final HttpClient http;
    private final Supplier<PeerAuth> auth;
    private final String self;
    private final FleetView fleet;
    private final long maxBody;
    private final long responseTimeoutMs;
    private PeerSocketClient sockets;

    public PeerClient(Vertx vertx, Supplier<PeerAuth> auth, String self, FleetView fleet, long maxBody, long responseTimeoutMs) {
        this.http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(2000).setKeepAlive(true)
                .setTcpNoDelay(true).setIdleTimeout(60), new PoolOptions().setHttp1MaxSize(64));
        this.auth = auth;
        this.self = self;
        this.fleet = fleet;
        this.maxBody = maxBody;
        this.responseTimeoutMs = responseTimeoutMs;
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
    public CompletableFuture<HttpResponseData> fetch(String node, CellIdentity id, HttpRequestData request) {
        if (PeerSocketClient.isUpgrade(request)) {
            if (sockets == null) {
                return CompletableFuture.failedFuture(new StubCallException("this node cannot tunnel WebSockets to " + node, false, null));
            }
            return sockets.connect(node, id, request);
        }
        return BodyCollector.collect(request.body(), maxBody).thenCompose(body -> send(node, id, PeerWire.fetchPath(id.scope()),
                body, req -> req
                        .putHeader(PeerWire.H_METHOD, request.method())
                        .putHeader(PeerWire.H_URL, request.url())
                        .putHeader(PeerWire.H_HEADERS, PeerWire.encodeHeaders(request.headers()))
                        .putHeader(PeerWire.H_REQUEST_ID, request.requestId() == null ? "" : request.requestId()),
                resp -> {
                    resp.pause();
                    String statusText = resp.getHeader(PeerWire.H_STATUS_TEXT);
                    String len = resp.getHeader("content-length");
                    long length = len == null ? -1 : Long.parseLong(len);
                    Body b = length == 0 ? Body.EMPTY : new Body.Stream(new ReadStreamPublisher(resp, Long.MAX_VALUE), length);
                    return CompletableFuture.completedFuture(new HttpResponseData(resp.statusCode(),
                            statusText == null ? "" : statusText, PeerWire.decodeHeaders(resp.getHeader(PeerWire.H_HEADERS)), b));
                }));
    }

    @Override
    public CompletableFuture<byte[]> call(String node, CellIdentity id, String method, byte[] arguments) {
        String path = PeerWire.callPath(id.scope()) + "?method=" + URLEncoder.encode(method, StandardCharsets.UTF_8);
        return send(node, id, path, arguments, req -> req,
                resp -> resp.body().toCompletionStage().toCompletableFuture().thenApply(Buffer::getBytes));
    }

    @Override
    public CompletableFuture<dev.cellgate.core.logic.WakeEntryVerdict.Reply> wake(String node, CellIdentity id,
                                                                                 java.util.OptionalLong entryMinuteMs) {
        return send(node, id, PeerWire.wakePath(id.scope()) + WakeAnswer.query(entryMinuteMs), new byte[0], req -> req,
                resp -> resp.body().toCompletionStage().toCompletableFuture()
                        .thenApply(b -> WakeAnswer.decode(b.toString(StandardCharsets.UTF_8))));
    }

    private <T> CompletableFuture<T> send(String node, CellIdentity id, String pathNoName, byte[] body,
                                          java.util.function.UnaryOperator<io.vertx.core.http.HttpClientRequest> decorate,
                                          java.util.function.Function<HttpClientResponse, CompletableFuture<T>> onOk) {
        PeerAuth a = auth.get();
        String path = pathNoName + (id.name() == null ? ""
                : (pathNoName.contains("?") ? "&" : "?") + "name=" + URLEncoder.encode(id.name(), StandardCharsets.UTF_8));
        return address(fleet, node).thenCompose(hp -> {
            PeerAuth.Signed s = a.sign("POST", path, body, self, node, System.currentTimeMillis());
            RequestOptions ro = new RequestOptions().setMethod(HttpMethod.POST).setHost(hp[0]).setPort(Integer.parseInt(hp[1]))
                    .setURI(path).setIdleTimeout(responseTimeoutMs)
                    .putHeader(PeerAuth.H_VERSION, s.version()).putHeader(PeerAuth.H_SOURCE, s.source())
                    .putHeader(PeerAuth.H_TARGET, s.target()).putHeader(PeerAuth.H_TS, s.ts())
                    .putHeader(PeerAuth.H_NONCE, s.nonce()).putHeader(PeerAuth.H_BODY, s.bodySha256()).putHeader(PeerAuth.H_MAC, s.mac());
            CompletableFuture<T> out = new CompletableFuture<>();
            http.request(ro).onComplete(rq -> {
                if (rq.failed()) {
                    out.completeExceptionally(unreachable(node, rq.cause()));
                    return;
                }
                decorate.apply(rq.result()).send(Buffer.buffer(body)).onComplete(ar -> {
                    if (ar.failed()) {
                        out.completeExceptionally(unreachable(node, ar.cause()));
                        return;
                    }
                    HttpClientResponse resp = ar.result();
                    String result = resp.getHeader(PeerWire.H_RESULT);
                    if (PeerWire.OK.equals(result)) {
                        onOk.apply(resp).whenComplete((v, e) -> {
                            if (e != null) {
                                out.completeExceptionally(e);
                            } else {
                                out.complete(v);
                            }
                        });
                        return;
                    }
                    resp.body().onComplete(b -> out.completeExceptionally(refusal(node, resp, result,
                            b.succeeded() ? b.result().toString(StandardCharsets.UTF_8) : "")));
                });
            });
            return out;
        });
    }

    /**
     * The owner's advertised {@code [host, port]}, or a {@link RerouteException} when its lease is gone
     * or expired (resolving again lets this node take the cell over).
     */
    static CompletableFuture<String[]> address(FleetView fleet, String node) {
        return fleet.lease(node, LEASE_MAX_AGE_MS).thenCompose(lease -> {
            if (lease.isEmpty() || !Liveness.isLive(lease.get(), System.currentTimeMillis())) {
                return CompletableFuture.failedFuture(new RerouteException("owner " + node + " has no live lease", 50));
            }
            LeaseRecord l = lease.get();
            if (l.protocol() != PeerAuth.VERSION) {
                return CompletableFuture.failedFuture(new StubCallException("owner " + node + " speaks peer protocol "
                        + l.protocol() + ", this node " + PeerAuth.VERSION + " (mixed versions during an upgrade?)", true, null));
            }
            return CompletableFuture.completedFuture(splitHostPort(l.advertise()));
        });
    }

    private static RuntimeException refusal(String node, HttpClientResponse resp, String result, String text) {
        return refusal(node, resp.statusCode(), resp::getHeader, result, text);
    }

    static RuntimeException refusal(String node, int status, java.util.function.UnaryOperator<String> header, String result, String text) {
        if (PeerWire.NOT_OWNER.equals(result)) {
            String owner = header.apply(PeerWire.H_OWNER);
            return new RerouteException("node " + node + " is not the owner (it says " + owner + ")", 1, owner);
        }
        if (PeerWire.DRAINING.equals(result)) {
            return new RerouteException("owner " + node + " is draining", 100);
        }
        if (PeerWire.UNAVAILABLE.equals(result)) {
            return new StubCallException(text, "1".equals(header.apply(PeerWire.H_RETRYABLE)), null);
        }
        if (PeerWire.EXCEPTION.equals(result)) {
            return new RuntimeException(text);
        }
        // No peer result header: a protocol refusal (401/409/426) or something that is not a cellgate node.
        return new StubCallException("peer " + node + " refused the call: HTTP " + status + " " + text, false, null);
    }

    /** Connection refused or reset: if the owner died its lease will expire; until then this is retryable. */
    static RuntimeException unreachable(String node, Throwable cause) {
        boolean refused = cause instanceof ConnectException || String.valueOf(cause.getMessage()).contains("Connection refused");
        return new RerouteException("owner " + node + " unreachable: " + cause.getMessage(), refused ? 200 : 100);
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
