package dev.cellgate.gateway.peer;

import dev.cellgate.core.fleet.FleetView;
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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * A WebSocket upgrade for a cell another node owns: opens a tunnel — a WebSocket to the owner's
 * internal listener, its upgrade request signed like every peer request (method GET, the path,
 * an empty body) and carrying the client's method, URL and headers — and answers the Worker with
 * a {@code 101} whose socket end is joined to it. When the owner answers without a socket (say
 * 426 "expected Upgrade"), that answer is passed on as an ordinary response; the owner's
 * refusals (not the owner, draining) become the same reroutes as for other peer calls.
 */
public final class PeerSocketClient {
    private final WebSocketClient client;
    private final Supplier<PeerAuth> auth;
    private final String self;
    private final FleetView fleet;
    private final SocketRegistry registry;

    public PeerSocketClient(Vertx vertx, Supplier<PeerAuth> auth, String self, FleetView fleet, SocketRegistry registry) {
        this.client = vertx.createWebSocketClient(new WebSocketClientOptions().setConnectTimeout(2000).setTcpNoDelay(true)
                .setMaxFrameSize(2 << 20).setMaxMessageSize(2 << 20)
                .setMaxConnections(1 << 20)); // one tunnel per client socket: never queue behind a pool limit
        this.auth = auth;
        this.self = self;
        this.fleet = fleet;
        this.registry = registry;
    }

    static boolean isUpgrade(HttpRequestData request) {
        String up = request.header("upgrade");
        return up != null && up.equalsIgnoreCase("websocket");
    }

    CompletableFuture<HttpResponseData> connect(String node, CellIdentity id, HttpRequestData request) {
        String path = PeerWire.socketPath(id.scope())
                + (id.name() == null ? "" : "?name=" + URLEncoder.encode(id.name(), StandardCharsets.UTF_8));
        return PeerClient.address(fleet, node).thenCompose(hp -> {
            PeerAuth.Signed s = auth.get().sign("GET", path, new byte[0], self, node, System.currentTimeMillis());
            WebSocketConnectOptions o = new WebSocketConnectOptions().setHost(hp[0]).setPort(Integer.parseInt(hp[1])).setURI(path)
                    .addHeader(PeerAuth.H_VERSION, s.version()).addHeader(PeerAuth.H_SOURCE, s.source())
                    .addHeader(PeerAuth.H_TARGET, s.target()).addHeader(PeerAuth.H_TS, s.ts())
                    .addHeader(PeerAuth.H_NONCE, s.nonce()).addHeader(PeerAuth.H_BODY, s.bodySha256()).addHeader(PeerAuth.H_MAC, s.mac())
                    .addHeader(PeerWire.H_METHOD, request.method()).addHeader(PeerWire.H_URL, request.url())
                    .addHeader(PeerWire.H_HEADERS, PeerWire.encodeHeaders(request.headers()))
                    .addHeader(PeerWire.H_REQUEST_ID, request.requestId() == null ? "" : request.requestId());
            CompletableFuture<HttpResponseData> out = new CompletableFuture<>();
            client.connect(o).onComplete(ar -> {
                if (ar.succeeded()) {
                    out.complete(joined(node, ar.result()));
                } else if (ar.cause() instanceof UpgradeRejectedException r) {
                    rejected(node, r, out);
                } else {
                    out.completeExceptionally(PeerClient.unreachable(node, ar.cause()));
                }
            });
            return out;
        });
    }

    /** The owner accepted: the Worker gets one end of a pipe whose other end rides the tunnel. */
    private HttpResponseData joined(String node, WebSocket tunnel) {
        WebSocketEnd[] pipe = WebSocketPipe.pair();
        TunnelBridge.join(tunnel, pipe[1], registry, node);
        String statusText = tunnel.headers().get(PeerWire.H_STATUS_TEXT);
        return new HttpResponseData(101, statusText == null ? "" : statusText,
                PeerWire.decodeHeaders(tunnel.headers().get(PeerWire.H_HEADERS)), Body.EMPTY, pipe[0]);
    }

    private static void rejected(String node, UpgradeRejectedException r, CompletableFuture<HttpResponseData> out) {
        String result = r.getHeaders() == null ? null : r.getHeaders().get(PeerWire.H_RESULT);
        String text = r.getBody() == null ? "" : r.getBody().toString(StandardCharsets.UTF_8);
        if (PeerWire.OK.equals(result)) {
            String statusText = r.getHeaders().get(PeerWire.H_STATUS_TEXT);
            out.complete(new HttpResponseData(r.getStatus(), statusText == null ? "" : statusText,
                    PeerWire.decodeHeaders(r.getHeaders().get(PeerWire.H_HEADERS)),
                    r.getBody() == null ? Body.EMPTY : Body.of(r.getBody().getBytes())));
            return;
        }
        out.completeExceptionally(PeerClient.refusal(node, r.getStatus(),
                h -> r.getHeaders() == null ? null : r.getHeaders().get(h), result, text));
    }
}
