package dev.cellgate.gateway.peer;

import dev.cellgate.core.fleet.PeerSignature;
import dev.cellgate.core.fleet.PeerSignature.Answer;
import dev.cellgate.core.fleet.PeerSignature.Envelope;
import dev.cellgate.core.fleet.PeerSignature.Signed;

/**
 * Peer request and answer signatures (SPEC §6, §19) with the fleet key; the MACs themselves are
 * {@link PeerSignature} in runtime-core, shared with {@code deploy-tool diagnose}.
 *
 * <p>The receiver checks a request's head before it reads a byte of the body, in order: version
 * (426), MAC over the head — which includes the body's declared digest and the forwarded
 * envelope — (401), timestamp within ±30 s (401), target (409), nonce not seen within the replay
 * window (409). Only then is the body read, hashed as it streams and compared with the signed
 * digest. A nonce is accepted once, so a signed answer for it answers exactly one request: the
 * receiver signs every answer it gives after that point, and none before (a refusal of a replay
 * must not look like the answer to the original). MACs compare in constant time.
 */
public final class PeerAuth {
    public static final int VERSION = PeerSignature.VERSION;
    public static final long SKEW_MS = PeerSignature.SKEW_MS;

    private final PeerSignature signature;

    public PeerAuth(String keyHex) {
        this.signature = new PeerSignature(keyHex);
    }

    public Signed sign(String method, String pathAndQuery, byte[] body, String source, String target, long nowMs, Envelope envelope) {
        return signature.sign(method, pathAndQuery, body, source, target, nowMs, envelope);
    }

    /**
     * Why a request's head is refused (HTTP status and reason), or null when it is authentic, fresh,
     * for this node and not a replay — its nonce is then taken, and its answers are signed.
     */
    public Refusal verifyHead(String method, String pathAndQuery, Signed got, Envelope envelope, String self, long nowMs,
                              NonceWindow nonces) {
        if (!Integer.toString(VERSION).equals(got.version())) {
            return new Refusal(426, "peer protocol version " + got.version() + " is not " + VERSION);
        }
        if (got.mac() == null || got.source() == null || got.target() == null || got.ts() == null || got.nonce() == null
                || got.bodySha256() == null) {
            return new Refusal(401, "missing peer signature headers");
        }
        String expected;
        try {
            expected = signature.requestMac(got.version(), method, pathAndQuery, got.bodySha256(), got.source(), got.target(),
                    got.ts(), got.nonce(), envelope);
        } catch (IllegalArgumentException e) {
            return new Refusal(401, "unsignable peer headers");
        }
        if (!PeerSignature.sameHex(expected, got.mac())) {
            return new Refusal(401, "bad peer signature");
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

    /** Whether a body whose digest is {@code actualSha256} is the one the request signed. */
    public static boolean bodyMatches(Signed got, String actualSha256) {
        return PeerSignature.sameHex(actualSha256, got.bodySha256());
    }

    public String answerMac(String nonce, Answer a) {
        return signature.answerMac(nonce, a);
    }

    public String bodyMac(String nonce, String answerMac, String bodySha256) {
        return signature.bodyMac(nonce, answerMac, bodySha256);
    }

    /** True when {@code mac} signs this answer to the request that carried {@code nonce}. */
    public boolean answerAuthentic(String nonce, Answer a, String mac) {
        return signature.answerAuthentic(nonce, a, mac);
    }

    /** True when a streamed answer's trailer MAC binds {@code bodySha256} to the answer it ends. */
    public boolean bodyAuthentic(String nonce, String answerMac, String bodySha256, String mac) {
        if (mac == null || bodySha256 == null || answerMac == null) {
            return false;
        }
        try {
            return PeerSignature.sameHex(signature.bodyMac(nonce, answerMac, bodySha256), mac);
        } catch (IllegalArgumentException unsignable) {
            return false;
        }
    }

    public record Refusal(int status, String reason) {
    }

    public static String sha256(byte[] body) {
        return PeerSignature.sha256(body);
    }
}
