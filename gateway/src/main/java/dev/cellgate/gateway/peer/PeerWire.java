package dev.cellgate.gateway.peer;

import io.vertx.core.json.JsonArray;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * How a cell call travels between nodes. The original request's method, URL and headers ride in
 * {@code cg-fwd-*} headers (headers as base64 JSON pairs, so repeated and hop-by-hop-looking
 * headers survive exactly); the body is the peer request's body. The answer says what happened
 * in {@code cg-peer-result}: {@code ok}, {@code not-owner}, {@code draining}, {@code unavailable},
 * {@code exception}.
 */
public final class PeerWire {
    public static final String PREFIX = "/peer/v1/";
    public static final String H_METHOD = "cg-fwd-method";
    public static final String H_URL = "cg-fwd-url";
    public static final String H_HEADERS = "cg-fwd-headers";
    public static final String H_STATUS_TEXT = "cg-fwd-status-text";
    public static final String H_REQUEST_ID = "cg-fwd-request-id";
    public static final String H_RESULT = "cg-peer-result";
    public static final String H_OWNER = "cg-owner";
    public static final String H_RETRYABLE = "cg-retryable";

    public static final String OK = "ok";
    public static final String NOT_OWNER = "not-owner";
    public static final String DRAINING = "draining";
    public static final String UNAVAILABLE = "unavailable";
    public static final String EXCEPTION = "exception";

    private PeerWire() {
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
}
