package dev.cellgate.gateway.peer;

import dev.cellgate.core.fleet.PeerSignature;

/**
 * Peer request signatures (SPEC §6): HMAC-SHA256 with the fleet key over the protocol version,
 * method, path and query, SHA-256 of the body, source node, target node, timestamp and nonce.
 * The receiver checks, in order: version (426), MAC (401), timestamp within ±30 s (401), target
 * (409), nonce not seen within the replay window (409). MACs compare in constant time. The
 * signature itself is {@link PeerSignature} in runtime-core, shared with {@code deploy-tool diagnose}.
 */
public final class PeerAuth {
    public static final int VERSION = PeerSignature.VERSION;
    public static final long SKEW_MS = PeerSignature.SKEW_MS;

    public static final String H_VERSION = PeerSignature.H_VERSION;
    public static final String H_SOURCE = PeerSignature.H_SOURCE;
    public static final String H_TARGET = PeerSignature.H_TARGET;
    public static final String H_TS = PeerSignature.H_TS;
    public static final String H_NONCE = PeerSignature.H_NONCE;
    public static final String H_BODY = PeerSignature.H_BODY;
    public static final String H_MAC = PeerSignature.H_MAC;

    private final PeerSignature signature;

    public PeerAuth(String keyHex) {
        this.signature = new PeerSignature(keyHex);
    }

    /** The headers a request must carry. */
    public record Signed(String version, String source, String target, String ts, String nonce, String bodySha256, String mac) {
    }

    public Signed sign(String method, String pathAndQuery, byte[] body, String source, String target, long nowMs) {
        PeerSignature.Signed s = signature.sign(method, pathAndQuery, body, source, target, nowMs);
        return new Signed(s.version(), s.source(), s.target(), s.ts(), s.nonce(), s.bodySha256(), s.mac());
    }

    /** Why a request is refused (HTTP status and reason), or null when it is authentic and fresh. */
    public Refusal verify(String method, String pathAndQuery, byte[] body, Signed got, String self, long nowMs, NonceWindow nonces) {
        if (!Integer.toString(VERSION).equals(got.version())) {
            return new Refusal(426, "peer protocol version " + got.version() + " is not " + VERSION);
        }
        if (got.mac() == null || got.source() == null || got.target() == null || got.ts() == null || got.nonce() == null
                || got.bodySha256() == null) {
            return new Refusal(401, "missing peer signature headers");
        }
        String expected = signature.mac(got.version(), method, pathAndQuery, got.bodySha256(), got.source(), got.target(),
                got.ts(), got.nonce());
        if (!PeerSignature.sameHex(expected, got.mac())) {
            return new Refusal(401, "bad peer signature");
        }
        if (!PeerSignature.sameHex(sha256(body), got.bodySha256())) {
            return new Refusal(401, "body does not match its signed digest");
        }
        long ts;
        try {
            ts = Long.parseLong(got.ts());
        } catch (NumberFormatException e) {
            return new Refusal(401, "bad peer timestamp");
        }
        if (Math.abs(nowMs - ts) > SKEW_MS) {
            return new Refusal(401, "peer timestamp " + (nowMs - ts) + " ms away from this node's clock (limit ±" + SKEW_MS + ")");
        }
        if (!self.equals(got.target())) {
            return new Refusal(409, "request is for node " + got.target() + ", this is " + self);
        }
        if (!nonces.firstSighting(got.nonce(), ts, nowMs)) {
            return new Refusal(409, "replayed nonce");
        }
        return null;
    }

    public record Refusal(int status, String reason) {
    }

    public static String sha256(byte[] body) {
        return PeerSignature.sha256(body);
    }
}
