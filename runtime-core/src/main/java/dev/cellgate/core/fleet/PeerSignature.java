package dev.cellgate.core.fleet;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The peer-request signature of SPEC §6, with no I/O: HMAC-SHA256 with the fleet key over
 * {@code cellgate-peer}, the protocol version, method, path and query, SHA-256 of the body,
 * source node, target node, timestamp and nonce, joined by newlines. Nodes sign and verify
 * with it (the gateway's {@code PeerAuth}), and so does {@code deploy-tool diagnose} when it
 * probes a node: one implementation, so the two can never drift apart.
 */
public final class PeerSignature {
    /** The peer protocol version this build speaks. */
    public static final int VERSION = 1;
    /** How far a request's timestamp may be from the receiver's clock. */
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

    /** @param keyHex the fleet key from {@code fleet/peer-auth.json} */
    public PeerSignature(String keyHex) {
        this.key = HexFormat.of().parseHex(keyHex);
    }

    /** The header values a signed request carries. */
    public record Signed(String version, String source, String target, String ts, String nonce, String bodySha256, String mac) {
    }

    /** Signs a request with a fresh random nonce. */
    public Signed sign(String method, String pathAndQuery, byte[] body, String source, String target, long nowMs) {
        byte[] n = new byte[16];
        RANDOM.nextBytes(n);
        return sign(method, pathAndQuery, body, source, target, nowMs, HexFormat.of().formatHex(n));
    }

    /** Signs a request with the given nonce (tests pin it to check the wire format). */
    public Signed sign(String method, String pathAndQuery, byte[] body, String source, String target, long nowMs, String nonce) {
        String bodyHash = sha256(body);
        String ts = Long.toString(nowMs);
        String version = Integer.toString(VERSION);
        return new Signed(version, source, target, ts, nonce, bodyHash,
                mac(version, method, pathAndQuery, bodyHash, source, target, ts, nonce));
    }

    /** The MAC (64 hex) of these fields. */
    public String mac(String version, String method, String pathAndQuery, String bodyHash, String source, String target,
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

    /** Compares two hex strings in constant time (a MAC check must not leak how much matched). */
    public static boolean sameHex(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.US_ASCII), b.getBytes(StandardCharsets.US_ASCII));
    }

    /** SHA-256 of a body as 64 hex; a null body is the empty body. */
    public static String sha256(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body == null ? new byte[0] : body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
