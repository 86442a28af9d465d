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
 * The peer protocol's signatures (SPEC §6, §19), with no I/O: HMAC-SHA256 with the fleet key.
 *
 * <p>A request's MAC covers {@code cellgate-peer}, the protocol version, method, path and query,
 * SHA-256 of the body, source node, target node, timestamp, nonce, and the forwarded envelope:
 * the original request's method, URL, headers and request id (the {@code cg-fwd-*} headers), so
 * nothing the owner hands its cell can be changed on the way. Every answer to an accepted
 * request carries a MAC over {@code cellgate-peer-answer}, the version, the request's nonce, the
 * status, the result headers ({@code cg-peer-result}, {@code cg-owner}, {@code cg-retryable}),
 * the answer's envelope (status text, headers) and its body's SHA-256 — or, for a body streamed
 * before its hash is known, {@link #BODY_IN_TRAILER}, and then a trailer MAC over the hash at the
 * end. Fields are joined by newlines; a field containing a newline cannot be signed (HTTP header
 * values cannot hold one), so the joined form is unambiguous.
 *
 * <p>Nodes sign and verify with it (the gateway's {@code PeerAuth}), and so does
 * {@code deploy-tool diagnose} when it probes a node: one implementation, so the two can never
 * drift apart.
 */
public final class PeerSignature {
    /** The peer protocol version this build speaks (2: signed envelopes and signed answers). */
    public static final int VERSION = 2;
    /** How far a request's timestamp may be from the receiver's clock. */
    public static final long SKEW_MS = 30_000;

    public static final String H_VERSION = "cg-peer-version";
    public static final String H_SOURCE = "cg-peer-source";
    public static final String H_TARGET = "cg-peer-target";
    public static final String H_TS = "cg-peer-ts";
    public static final String H_NONCE = "cg-peer-nonce";
    /** A request's body digest; on an answer, the answer body's digest or {@link #BODY_IN_TRAILER}. */
    public static final String H_BODY = "cg-peer-body-sha256";
    public static final String H_MAC = "cg-peer-mac";
    /** The MAC of an answer, over {@link Answer} and the request's nonce. */
    public static final String H_ANSWER_MAC = "cg-peer-answer-mac";
    /** Trailer of a streamed answer: the MAC over its body's digest (sent in an {@link #H_BODY} trailer). */
    public static final String H_BODY_MAC = "cg-peer-body-mac";
    /** The body digest of a streamed answer comes at the end, in trailers. */
    public static final String BODY_IN_TRAILER = "trailer";
    /** What happened, on an answer: {@code ok}, {@code not-owner}, {@code draining}, {@code unavailable}, {@code exception}. */
    public static final String H_RESULT = "cg-peer-result";
    /** On a "not owner" answer: the owner the refusing node knows of. */
    public static final String H_OWNER = "cg-owner";
    /** On an "unavailable" answer: whether the owner says a retry may succeed ({@code 1}/{@code 0}). */
    public static final String H_RETRYABLE = "cg-retryable";
    /** The cell response's status text, on an "ok" answer to a fetch. */
    public static final String H_STATUS_TEXT = "cg-fwd-status-text";
    /** A forwarded request's (or a cell response's) headers, encoded. */
    public static final String H_FWD_HEADERS = "cg-fwd-headers";

    private static final SecureRandom RANDOM = new SecureRandom();

    /** One keyed MAC per thread: a request and its answer take up to six MACs, each a provider lookup otherwise. */
    private final ThreadLocal<Mac> macs;

    /** @param keyHex the fleet key from {@code fleet/peer-auth.json} */
    public PeerSignature(String keyHex) {
        SecretKeySpec key = new SecretKeySpec(HexFormat.of().parseHex(keyHex), "HmacSHA256");
        this.macs = ThreadLocal.withInitial(() -> {
            try {
                Mac m = Mac.getInstance("HmacSHA256");
                m.init(key);
                return m;
            } catch (NoSuchAlgorithmException | InvalidKeyException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** The header values a signed request carries. */
    public record Signed(String version, String source, String target, String ts, String nonce, String bodySha256, String mac) {
    }

    /**
     * What a forwarded request carries for the owner's cell besides the body: the original
     * method, URL, encoded headers and request id. Absent values are empty (the receiver reads
     * an absent header as empty, so both sign the same).
     */
    public record Envelope(String method, String url, String headers, String requestId) {
        /** A peer request that forwards no HTTP request (an RPC, a wake, a probe). */
        public static final Envelope NONE = new Envelope("", "", "", "");

        public Envelope {
            method = method == null ? "" : method;
            url = url == null ? "" : url;
            headers = headers == null ? "" : headers;
            requestId = requestId == null ? "" : requestId;
        }
    }

    /**
     * What an answer's MAC covers besides the request's nonce: the HTTP status, the result
     * headers, the answer's own envelope, and the body digest (or {@link #BODY_IN_TRAILER}).
     * Absent header values are empty.
     */
    public record Answer(int status, String result, String owner, String retryable, String statusText, String headers,
                         String bodySha256) {
        public Answer {
            result = result == null ? "" : result;
            owner = owner == null ? "" : owner;
            retryable = retryable == null ? "" : retryable;
            statusText = statusText == null ? "" : statusText;
            headers = headers == null ? "" : headers;
            bodySha256 = bodySha256 == null ? "" : bodySha256;
        }

        /** The fields as an answer's headers carry them. */
        public static Answer read(int status, java.util.function.UnaryOperator<String> header) {
            return new Answer(status, header.apply(H_RESULT), header.apply(H_OWNER), header.apply(H_RETRYABLE),
                    header.apply(H_STATUS_TEXT), header.apply(H_FWD_HEADERS), header.apply(H_BODY));
        }
    }

    /** Signs a request with a fresh random nonce. */
    public Signed sign(String method, String pathAndQuery, byte[] body, String source, String target, long nowMs, Envelope envelope) {
        byte[] n = new byte[16];
        RANDOM.nextBytes(n);
        return sign(method, pathAndQuery, body, source, target, nowMs, envelope, HexFormat.of().formatHex(n));
    }

    /** Signs a request with the given nonce (tests pin it to check the wire format). */
    public Signed sign(String method, String pathAndQuery, byte[] body, String source, String target, long nowMs, Envelope envelope,
                       String nonce) {
        String bodyHash = sha256(body);
        String ts = Long.toString(nowMs);
        String version = Integer.toString(VERSION);
        return new Signed(version, source, target, ts, nonce, bodyHash,
                requestMac(version, method, pathAndQuery, bodyHash, source, target, ts, nonce, envelope));
    }

    /** The MAC (64 hex) of a request with these fields. */
    public String requestMac(String version, String method, String pathAndQuery, String bodyHash, String source, String target,
                             String ts, String nonce, Envelope envelope) {
        return hmac("cellgate-peer", version, method, pathAndQuery, bodyHash, source, target, ts, nonce,
                envelope.method(), envelope.url(), envelope.headers(), envelope.requestId());
    }

    /** The MAC (64 hex) of an answer to the request that carried {@code nonce}. */
    public String answerMac(String nonce, Answer a) {
        return hmac("cellgate-peer-answer", Integer.toString(VERSION), nonce, Integer.toString(a.status()), a.result(), a.owner(),
                a.retryable(), a.statusText(), a.headers(), a.bodySha256());
    }

    /** The trailer MAC of a streamed answer: binds the body's digest to the answer ({@code answerMac}) it ends. */
    public String bodyMac(String nonce, String answerMac, String bodySha256) {
        return hmac("cellgate-peer-body", Integer.toString(VERSION), nonce, answerMac, bodySha256);
    }

    /** True when {@code mac} is the answer MAC of {@code a} for {@code nonce} (constant-time; a missing MAC is false). */
    public boolean answerAuthentic(String nonce, Answer a, String mac) {
        return mac != null && nonce != null && signable(a) && sameHex(answerMac(nonce, a), mac);
    }

    private static boolean signable(Answer a) {
        for (String f : new String[] {a.result(), a.owner(), a.retryable(), a.statusText(), a.headers(), a.bodySha256()}) {
            if (f.indexOf('\n') >= 0) {
                return false;
            }
        }
        return true;
    }

    private String hmac(String... fields) {
        for (String f : fields) {
            if (f == null || f.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("a signed peer field is missing or holds a newline");
            }
        }
        return HexFormat.of().formatHex(macs.get().doFinal(String.join("\n", fields).getBytes(StandardCharsets.UTF_8)));
    }

    /** Compares two hex strings in constant time (a MAC check must not leak how much matched). */
    public static boolean sameHex(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.US_ASCII), b.getBytes(StandardCharsets.US_ASCII));
    }

    /** SHA-256 of a body as 64 hex; a null body is the empty body. */
    public static String sha256(byte[] body) {
        return HexFormat.of().formatHex(sha256Digest().digest(body == null ? new byte[0] : body));
    }

    /** A fresh SHA-256 digest, for hashing a body while it streams. */
    public static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
