package dev.cellgate.gateway.peer;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Peer request signatures (SPEC §6): HMAC-SHA256 with the fleet key over the protocol version,
 * method, path and query, SHA-256 of the body, source node, target node, timestamp and nonce.
 * The receiver checks, in order: version (426), MAC (401), timestamp within ±30 s (401), target
 * (409), nonce not seen within the replay window (409). MACs compare in constant time.
 */
public final class PeerAuth {
    public static final int VERSION = 1;
    public static final long SKEW_MS = 30_000;

    public static final String H_VERSION = "cg-peer-version";
    public static final String H_SOURCE = "cg-peer-source";
    public static final String H_TARGET = "cg-peer-target";
    public static final String H_TS = "cg-peer-ts";
    public static final String H_NONCE = "cg-peer-nonce";
    public static final String H_BODY = "cg-peer-body-sha256";
    public static final String H_MAC = "cg-peer-mac";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] key;

    public PeerAuth(String keyHex) {
        this.key = HexFormat.of().parseHex(keyHex);
    }

    /** The headers a request must carry. */
    public record Signed(String version, String source, String target, String ts, String nonce, String bodySha256, String mac) {
    }

    public Signed sign(String method, String pathAndQuery, byte[] body, String source, String target, long nowMs) {
        byte[] n = new byte[16];
        RANDOM.nextBytes(n);
        String nonce = HexFormat.of().formatHex(n);
        String bodyHash = sha256(body);
        String ts = Long.toString(nowMs);
        String mac = mac(Integer.toString(VERSION), method, pathAndQuery, bodyHash, source, target, ts, nonce);
        return new Signed(Integer.toString(VERSION), source, target, ts, nonce, bodyHash, mac);
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
        String expected = mac(got.version(), method, pathAndQuery, got.bodySha256(), got.source(), got.target(), got.ts(), got.nonce());
        if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII), got.mac().getBytes(StandardCharsets.US_ASCII))) {
            return new Refusal(401, "bad peer signature");
        }
        if (!MessageDigest.isEqual(sha256(body).getBytes(StandardCharsets.US_ASCII), got.bodySha256().getBytes(StandardCharsets.US_ASCII))) {
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

    private String mac(String version, String method, String pathAndQuery, String bodyHash, String source, String target,
                       String ts, String nonce) {
        String canonical = String.join("\n", "cellgate-peer", version, method, pathAndQuery, bodyHash, source, target, ts, nonce);
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(key, "HmacSHA256"));
            return HexFormat.of().formatHex(m.doFinal(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String sha256(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body == null ? new byte[0] : body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
