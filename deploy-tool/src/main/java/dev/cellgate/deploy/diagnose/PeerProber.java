package dev.cellgate.deploy.diagnose;

import dev.cellgate.core.fleet.PeerSignature;
import io.vertx.core.json.JsonObject;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Probes a live node on its advertised internal address: {@code GET /peer/v1/probe}, signed with
 * the fleet key exactly as a peer signs (same {@link PeerSignature}), so a success proves the
 * address is reachable from here, the node speaks our peer protocol version, and it accepts our
 * fleet key and clock; its answer must carry a valid answer MAC (peer protocol v2), which proves
 * the node holds the same fleet key. The answer carries the node's own name (a mismatch means
 * the address now belongs to another node) and its load.
 */
public final class PeerProber {
    public static final String PATH = "/peer/v1/probe";
    /** The source name in the signature; receivers check the target, not the source. */
    public static final String SOURCE = "deploy-tool";

    private final HttpClient http;
    private final PeerSignature signature;
    private final Duration timeout;

    public PeerProber(PeerSignature signature, Duration timeout) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
        this.signature = signature;
        this.timeout = timeout;
    }

    /** What a probe found. {@code status} is the HTTP status, 0 when nothing answered. */
    public record Outcome(String node, String advertise, boolean reachable, int status, Integer protocol, boolean authOk,
                          Boolean draining, JsonObject load, long latencyMs, List<String> problems) {
        public Outcome {
            problems = List.copyOf(problems);
        }

        public boolean ok() {
            return problems.isEmpty();
        }
    }

    public CompletableFuture<Outcome> probe(String node, AdvertiseAddress address) {
        PeerSignature.Signed s = signature.sign("GET", PATH, new byte[0], SOURCE, node, System.currentTimeMillis(),
                PeerSignature.Envelope.NONE);
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://" + address.authority() + PATH)).timeout(timeout).GET()
                .header(PeerSignature.H_VERSION, s.version()).header(PeerSignature.H_SOURCE, s.source())
                .header(PeerSignature.H_TARGET, s.target()).header(PeerSignature.H_TS, s.ts())
                .header(PeerSignature.H_NONCE, s.nonce()).header(PeerSignature.H_BODY, s.bodySha256())
                .header(PeerSignature.H_MAC, s.mac()).build();
        long t0 = System.nanoTime();
        String advertise = address.authority();
        return http.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray()).handle((resp, err) -> {
            long ms = (System.nanoTime() - t0) / 1_000_000;
            if (err != null) {
                return new Outcome(node, advertise, false, 0, null, false, null, null, ms,
                        List.of("unreachable at " + advertise + ": " + describe(err)));
            }
            PeerSignature.Answer a = PeerSignature.Answer.read(resp.statusCode(), h -> resp.headers().firstValue(h).orElse(null));
            boolean signed = signature.answerAuthentic(s.nonce(), a, resp.headers().firstValue(PeerSignature.H_ANSWER_MAC).orElse(null))
                    && PeerSignature.sameHex(PeerSignature.sha256(resp.body()), a.bodySha256());
            return judge(node, advertise, resp.statusCode(), new String(resp.body(), StandardCharsets.UTF_8), signed, ms);
        });
    }

    /** @param signed the answer carries a valid answer MAC for our request (peer protocol v2) */
    static Outcome judge(String node, String advertise, int status, String body, boolean signed, long ms) {
        List<String> problems = new ArrayList<>();
        if (status != 200) {
            String reason = errorOf(body);
            problems.add(switch (status) {
                case 401 -> "refused our signature (401: " + reason + "): another fleet's key, or a clock more than "
                        + PeerSignature.SKEW_MS / 1000 + " s away from this machine's";
                case 409 -> "answered 409 (" + reason + "): the address belongs to another node, or a replay";
                case 426 -> "speaks another peer protocol version (426: " + reason + "); this tool speaks " + PeerSignature.VERSION;
                case 404 -> "has no " + PATH + " (404): " + advertise + " is not a cellgate internal listener (the public one?)";
                case 503 -> "not ready (503: " + reason + ")";
                default -> "answered HTTP " + status + ": " + reason;
            });
            return new Outcome(node, advertise, true, status, null, false, null, null, ms, problems);
        }
        if (!signed) {
            problems.add("answered 200 without a valid answer signature: not a node of this fleet, or one that speaks an older peer protocol");
            return new Outcome(node, advertise, true, status, null, false, null, null, ms, problems);
        }
        JsonObject j;
        try {
            j = new JsonObject(body);
        } catch (RuntimeException e) {
            problems.add("answered 200 with a body that is not a JSON object");
            return new Outcome(node, advertise, true, status, null, true, null, null, ms, problems);
        }
        Integer protocol = j.getValue("protocol") instanceof Number n ? n.intValue() : null;
        if (!node.equals(j.getValue("node"))) {
            problems.add("answered as node '" + j.getValue("node") + "', not " + node);
        }
        if (protocol == null || protocol != PeerSignature.VERSION) {
            problems.add("reports peer protocol " + protocol + "; this tool speaks " + PeerSignature.VERSION);
        }
        Boolean draining = j.getValue("draining") instanceof Boolean b ? b : null;
        JsonObject load = j.getValue("load") instanceof JsonObject o ? o : null;
        return new Outcome(node, advertise, true, status, protocol, true, draining, load, ms, problems);
    }

    private static String errorOf(String body) {
        try {
            Object e = new JsonObject(body).getValue("error");
            return e == null ? body.strip() : String.valueOf(e);
        } catch (RuntimeException ex) {
            String b = body == null ? "" : body.strip();
            return b.length() > 200 ? b.substring(0, 200) + "…" : b;
        }
    }

    private static String describe(Throwable e) {
        Throwable c = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (c instanceof HttpConnectTimeoutException) {
            return "connect timed out";
        }
        if (c instanceof HttpTimeoutException) {
            return "no answer within the timeout";
        }
        if (c instanceof ConnectException) {
            return "connection refused";
        }
        return c.getClass().getSimpleName() + (c.getMessage() == null ? "" : ": " + c.getMessage());
    }
}
