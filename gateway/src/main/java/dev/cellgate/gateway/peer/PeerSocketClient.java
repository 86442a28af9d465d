package dev.cellgate.gateway.peer;

import dev.cellgate.core.cell.ForwardFailedException;
import dev.cellgate.core.fleet.FleetView;
import dev.cellgate.core.fleet.PeerSignature;
import dev.cellgate.core.fleet.PeerSignature.Answer;
import dev.cellgate.core.fleet.PeerSignature.Envelope;
import dev.cellgate.core.fleet.PeerSignature.Signed;
import dev.cellgate.core.logic.ForwardFailure.Kind;
import dev.cellgate.core.spi.js.Body;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.WebSocketEnd;
import dev.cellgate.core.spi.js.WebSocketPipe;
import dev.cellgate.gateway.ws.SocketRegistry;
import dev.cellgate.gateway.ws.TunnelBridge;
import io.vertx.core.Vertx;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import java.net.ConnectException;
import dev.cellgate.core.time.Ticker;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A WebSocket upgrade for a cell another node owns: opens a tunnel — a WebSocket to the owner's
 * internal listener, its upgrade request signed like every peer request (method GET, the path,
 * an empty body, and the client's method, URL, headers and request id as the forwarded envelope)
 * — and answers the Worker with a {@code 101} whose socket end is joined to it, once the owner's
 * 101 carries a valid answer MAC. When the owner answers without a socket (say 426 "expected
 * Upgrade"), that signed answer is passed on as an ordinary response; the owner's signed
 * refusals (not the owner, draining) are the same failures as for other peer calls.
 */
public final class PeerSocketClient {
    private final WebSocketClient client;
    private final Supplier<PeerAuth> auth;
    private final String self;
    private final FleetView fleet;
    private final SocketRegistry registry;
    /** Signs each upgrade's timestamp: the receiver compares it with its own wall clock (±30 s, SPEC §6). */
    private final Ticker wall;

    public PeerSocketClient(Vertx vertx, Supplier<PeerAuth> auth, String self, FleetView fleet, SocketRegistry registry, Ticker wall) {
        this.client = vertx.createWebSocketClient(new WebSocketClientOptions().setConnectTimeout(2000).setTcpNoDelay(true)
                .setMaxFrameSize(2 << 20).setMaxMessageSize(2 << 20)
                .setMaxConnections(1 << 20)); // one tunnel per client socket: never queue behind a pool limit
        this.auth = auth;
        this.self = self;
        this.fleet = fleet;
        this.registry = registry;
        this.wall = wall;
    }

    static boolean isUpgrade(HttpRequestData request) {
        String up = request.header("upgrade");
        return up != null && up.equalsIgnoreCase("websocket");
    }

    CompletableFuture<HttpResponseData> connect(String node, CellIdentity id, HttpRequestData request) {
        String path = PeerWire.socketPath(id.scope())
                + (id.name() == null ? "" : "?name=" + URLEncoder.encode(id.name(), StandardCharsets.UTF_8));
        return PeerClient.address(fleet, node).thenCompose(hp -> {
            PeerAuth a = auth.get();
            Envelope envelope = PeerClient.envelope(request);
            Signed s = a.sign("GET", path, new byte[0], self, node, wall.nowMs(), envelope);
            WebSocketConnectOptions o = new WebSocketConnectOptions().setHost(hp[0]).setPort(Integer.parseInt(hp[1])).setURI(path);
            PeerWire.putSigned(o::addHeader, s);
            PeerWire.putEnvelope(o::addHeader, envelope);
            CompletableFuture<HttpResponseData> out = new CompletableFuture<>();
            client.connect(o).onComplete(ar -> {
                if (ar.succeeded()) {
                    accepted(a, s.nonce(), node, ar.result(), out);
                } else if (ar.cause() instanceof UpgradeRejectedException r) {
                    rejected(a, s.nonce(), node, r, out);
                } else if (ar.cause() instanceof ConnectException) {
                    out.completeExceptionally(PeerClient.unreachable(node, ar.cause())); // no connection: nothing was sent
                } else {
                    out.completeExceptionally(PeerClient.lostAfterSend(node, ar.cause()));
                }
            });
            return out;
        });
    }

    /** The owner accepted, if its signed 101 says so: the Worker gets one end of a pipe whose other end rides the tunnel. */
    private void accepted(PeerAuth a, String nonce, String node, WebSocket tunnel, CompletableFuture<HttpResponseData> out) {
        Answer answer = PeerWire.answerOf(101, tunnel.headers()::get);
        if (!a.answerAuthentic(nonce, answer, tunnel.headers().get(PeerSignature.H_ANSWER_MAC)) || !PeerWire.OK.equals(answer.result())) {
            tunnel.close((short) 1008, "unsigned tunnel");
            out.completeExceptionally(new ForwardFailedException(Kind.UNTRUSTED_ANSWER,
                    "node " + node + " accepted the WebSocket without a valid signature: closed"));
            return;
        }
        WebSocketEnd[] pipe = WebSocketPipe.pair();
        TunnelBridge.join(tunnel, pipe[1], registry, node);
        out.complete(new HttpResponseData(101, answer.statusText(), PeerWire.decodeHeaders(answer.headers()), Body.EMPTY, pipe[0]));
    }

    /** The owner answered without a socket: passed on when signed "ok", else what its signed refusal says. */
    private void rejected(PeerAuth a, String nonce, String node, UpgradeRejectedException r, CompletableFuture<HttpResponseData> out) {
        UnaryOperator<String> header = h -> r.getHeaders() == null ? null : r.getHeaders().get(h);
        Answer answer = PeerWire.answerOf(r.getStatus(), header);
        byte[] body = r.getBody() == null ? new byte[0] : r.getBody().getBytes();
        String text = new String(body, StandardCharsets.UTF_8);
        if (!a.answerAuthentic(nonce, answer, header.apply(PeerSignature.H_ANSWER_MAC))) {
            PeerClient.untrusted(fleet, node, answer, text).whenComplete((f, e) -> out.completeExceptionally(f));
            return;
        }
        if (!PeerSignature.sameHex(PeerSignature.sha256(body), answer.bodySha256())) {
            boolean ok = PeerWire.OK.equals(answer.result());
            out.completeExceptionally(new ForwardFailedException(ok ? Kind.RESULT_LOST : Kind.UNTRUSTED_ANSWER,
                    "node " + node + "'s answer body does not match its signed digest"));
            return;
        }
        if (PeerWire.OK.equals(answer.result())) {
            out.complete(new HttpResponseData(r.getStatus(), answer.statusText(), PeerWire.decodeHeaders(answer.headers()), Body.of(body)));
            return;
        }
        out.completeExceptionally(PeerClient.refusal(node, answer, text));
    }
}
