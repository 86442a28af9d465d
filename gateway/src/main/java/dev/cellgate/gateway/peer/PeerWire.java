package dev.cellgate.gateway.peer;

import dev.cellgate.core.fleet.PeerSignature;
import dev.cellgate.core.fleet.PeerSignature.Answer;
import dev.cellgate.core.fleet.PeerSignature.Envelope;
import dev.cellgate.core.fleet.PeerSignature.Signed;
import io.vertx.core.json.JsonArray;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * How a cell call travels between nodes. The original request's method, URL and headers ride in
 * {@code cg-fwd-*} headers (headers as base64 JSON pairs, so repeated and hop-by-hop-looking
 * headers survive exactly); the body is the peer request's body. The answer says what happened
 * in {@code cg-peer-result}: {@code ok}, {@code not-owner}, {@code draining}, {@code unavailable},
 * {@code exception} (no result header: a protocol refusal). Requests and answers are signed
 * ({@link PeerSignature}): the {@code cg-peer-*} signature headers, and on answers
 * {@code cg-peer-answer-mac} over the status, these result headers, the answer's envelope and its
 * body digest. The path's {@code v1} is historical: the protocol version is the
 * {@code cg-peer-version} header, so a node of another version answers 426, not 404.
 */
public final class PeerWire {
    public static final String PREFIX = "/peer/v1/";
    public static final String H_METHOD = "cg-fwd-method";
    public static final String H_URL = "cg-fwd-url";
    public static final String H_HEADERS = PeerSignature.H_FWD_HEADERS;
    public static final String H_STATUS_TEXT = PeerSignature.H_STATUS_TEXT;
    public static final String H_REQUEST_ID = "cg-fwd-request-id";
    public static final String H_RESULT = PeerSignature.H_RESULT;
    public static final String H_OWNER = PeerSignature.H_OWNER;
    public static final String H_RETRYABLE = PeerSignature.H_RETRYABLE;

    public static final String OK = "ok";
    public static final String NOT_OWNER = "not-owner";
    public static final String DRAINING = "draining";
    public static final String UNAVAILABLE = "unavailable";
    public static final String EXCEPTION = "exception";

    private PeerWire() {
    }

    /** The signature headers of a request, as read (absent ones null). */
    static Signed signedOf(UnaryOperator<String> header) {
        return new Signed(header.apply(PeerSignature.H_VERSION), header.apply(PeerSignature.H_SOURCE),
                header.apply(PeerSignature.H_TARGET), header.apply(PeerSignature.H_TS), header.apply(PeerSignature.H_NONCE),
                header.apply(PeerSignature.H_BODY), header.apply(PeerSignature.H_MAC));
    }

    public static void putSigned(BiConsumer<String, String> put, Signed s) {
        put.accept(PeerSignature.H_VERSION, s.version());
        put.accept(PeerSignature.H_SOURCE, s.source());
        put.accept(PeerSignature.H_TARGET, s.target());
        put.accept(PeerSignature.H_TS, s.ts());
        put.accept(PeerSignature.H_NONCE, s.nonce());
        put.accept(PeerSignature.H_BODY, s.bodySha256());
        put.accept(PeerSignature.H_MAC, s.mac());
    }

    /** The forwarded envelope of a request exactly as the receiver will use it (what its MAC must cover). */
    static Envelope envelopeOf(UnaryOperator<String> header) {
        return new Envelope(header.apply(H_METHOD), header.apply(H_URL), header.apply(H_HEADERS), header.apply(H_REQUEST_ID));
    }

    static void putEnvelope(BiConsumer<String, String> put, Envelope e) {
        if (e.equals(Envelope.NONE)) {
            return;
        }
        put.accept(H_METHOD, e.method());
        put.accept(H_URL, e.url());
        put.accept(H_HEADERS, e.headers());
        put.accept(H_REQUEST_ID, e.requestId());
    }

    /** What an answer's MAC covers, as the answer's headers say. */
    static Answer answerOf(int status, UnaryOperator<String> header) {
        return Answer.read(status, header);
    }

    public static String encodeHeaders(List<Map.Entry<String, String>> headers) {
        JsonArray a = new JsonArray();
        for (Map.Entry<String, String> h : headers) {
            a.add(new JsonArray().add(h.getKey()).add(h.getValue()));
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(a.encode().getBytes(StandardCharsets.UTF_8));
    }

    public static List<Map.Entry<String, String>> decodeHeaders(String encoded) {
        if (encoded == null || encoded.isEmpty()) {
            return List.of();
        }
        JsonArray a = new JsonArray(new String(Base64.getUrlDecoder().decode(encoded), StandardCharsets.UTF_8));
        List<Map.Entry<String, String>> out = new ArrayList<>(a.size());
        for (Object o : a) {
            JsonArray pair = (JsonArray) o;
            out.add(Map.entry(pair.getString(0), pair.getString(1)));
        }
        return out;
    }

    public static String fetchPath(String scope) {
        return PREFIX + "fetch/" + scope;
    }

    public static String wakePath(String scope) {
        return PREFIX + "wake/" + scope;
    }

    /** The WebSocket tunnel to a cell's owner (an upgrade, not a POST). */
    public static String socketPath(String scope) {
        return PREFIX + "socket/" + scope;
    }

    public static String callPath(String scope) {
        return PREFIX + "call/" + scope;
    }

    /** Query parameters of the exported-object routes (in the path, so the request MAC covers them). */
    public static final String P_KEY = "key";
    public static final String P_OP = "op";
    public static final String P_PATH = "path";

    /**
     * A call on an object the receiving node exported over JS RPC: {@code key} names it, {@code op}
     * ("call" or "get") and {@code pathJson} (a JSON array of names) say what to do; the body is the
     * structured-clone arguments.
     */
    public static String exportCallPath(String key, String op, String pathJson) {
        return PREFIX + "export/call?" + P_KEY + "=" + enc(key) + "&" + P_OP + "=" + enc(op) + "&" + P_PATH + "=" + enc(pathJson);
    }

    /** The holder released its stub {@code key} of an object the receiving node exported. */
    public static String exportReleasePath(String key) {
        return PREFIX + "export/release?" + P_KEY + "=" + enc(key);
    }

    /**
     * The forward's trace context ({@code traceparent}, W3C) as a query parameter of the fetch path:
     * the request MAC covers the path, so it travels signed without a new envelope field (a node of
     * this protocol version that does not trace ignores it). Empty when tracing is off.
     */
    public static final String P_TRACEPARENT = "traceparent";

    public static String traceQuery(String traceparent) {
        return traceparent == null ? "" : "?" + P_TRACEPARENT + "=" + enc(traceparent);
    }

    private static String enc(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
