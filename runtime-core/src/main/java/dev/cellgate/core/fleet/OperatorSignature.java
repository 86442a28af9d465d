package dev.cellgate.core.fleet;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature of a call to a node's mutating operator routes (SPEC §19: {@code POST /shutdown},
 * {@code /evict/…}, {@code /probe}): HMAC-SHA256 with the fleet key over {@code cellgate-operator},
 * the target node, the method, path and query, SHA-256 of the body, a timestamp and a nonce, joined
 * by newlines. The first line keeps it apart from a peer request's MAC ({@code cellgate-peer}, see
 * {@link PeerSignature}): one can never be replayed as the other. The target node is signed too, so
 * a call recorded on one node is refused by every other. {@code deploy-tool node} signs with it and
 * the gateway checks with it; the receiver also refuses a nonce it saw within the window.
 */
public final class OperatorSignature {
    /** How far a call's timestamp may be from the receiver's clock. */
    public static final long SKEW_MS = 30_000;

    public static final String H_TARGET = "cg-op-target";
    public static final String H_TS = "cg-op-ts";
    public static final String H_NONCE = "cg-op-nonce";
    public static final String H_BODY = "cg-op-body-sha256";
    public static final String H_MAC = "cg-op-mac";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    /** @param keyHex the fleet key from {@code fleet/peer-auth.json} */
    public OperatorSignature(String keyHex) {
        this.key = new SecretKeySpec(HexFormat.of().parseHex(keyHex), "HmacSHA256");
    }

    /** The header values a signed call carries. */
    public record Signed(String target, String ts, String nonce, String bodySha256, String mac) {
        /** The headers, by name. */
        public Map<String, String> headers() {
            Map<String, String> h = new LinkedHashMap<>();
            h.put(H_TARGET, target);
            h.put(H_TS, ts);
            h.put(H_NONCE, nonce);
            h.put(H_BODY, bodySha256);
            h.put(H_MAC, mac);
            return h;
        }
    }

    /** Signs a call to node {@code target} with a fresh random nonce. */
    public Signed sign(String target, String method, String pathAndQuery, byte[] body, long nowMs) {
        byte[] n = new byte[16];
        RANDOM.nextBytes(n);
        return sign(target, method, pathAndQuery, body, nowMs, HexFormat.of().formatHex(n));
    }

    /** Signs with the given nonce (tests pin it). */
    public Signed sign(String target, String method, String pathAndQuery, byte[] body, long nowMs, String nonce) {
        String bodyHash = PeerSignature.sha256(body);
        String ts = Long.toString(nowMs);
        return new Signed(target, ts, nonce, bodyHash, mac(target, method, pathAndQuery, bodyHash, ts, nonce));
    }

    /** The MAC (64 hex) of these fields. */
    public String mac(String target, String method, String pathAndQuery, String bodyHash, String ts, String nonce) {
        String canonical = String.join("\n", "cellgate-operator", target, method, pathAndQuery, bodyHash, ts, nonce);
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(key);
            return HexFormat.of().formatHex(m.doFinal(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Why a call is refused, or null when it is authentic, for node {@code self} and within
     * {@link #SKEW_MS} of {@code nowMs}. Checked in that order, MACs compared in constant time. A
     * replayed nonce is the caller's check, made after this one passed (only an authentic call may
     * take a place in its nonce window).
     */
    public String refusal(String method, String pathAndQuery, byte[] body, Signed got, String self, long nowMs) {
        if (got.mac() == null || got.target() == null || got.ts() == null || got.nonce() == null || got.bodySha256() == null) {
            return "missing operator signature headers (" + H_TARGET + ", " + H_TS + ", " + H_NONCE + ", " + H_BODY + ", " + H_MAC + ")";
        }
        String expected = mac(got.target(), method, pathAndQuery, got.bodySha256(), got.ts(), got.nonce());
        if (!PeerSignature.sameHex(expected, got.mac())) {
            return "bad operator signature (another fleet's key, or the request was changed on the way)";
        }
        if (!PeerSignature.sameHex(PeerSignature.sha256(body), got.bodySha256())) {
            return "the body does not match its signed digest";
        }
        long ts;
        try {
            ts = Long.parseLong(got.ts());
        } catch (NumberFormatException e) {
            return "bad operator timestamp '" + got.ts() + "'";
        }
        if (Math.abs(nowMs - ts) > SKEW_MS) {
            return "operator timestamp " + (nowMs - ts) + " ms away from this node's clock (limit ±" + SKEW_MS + " ms)";
        }
        if (!self.equals(got.target())) {
            return "the call was signed for node " + got.target() + ", this is " + self;
        }
        return null;
    }
}
