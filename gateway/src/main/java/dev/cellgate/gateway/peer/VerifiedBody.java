package dev.cellgate.gateway.peer;

import dev.cellgate.core.fleet.PeerSignature;
import io.vertx.core.MultiMap;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;
import java.util.function.Supplier;

/**
 * A peer answer's body on its way to the Worker, hashed as it streams and checked at its end:
 * against the digest the signed head named, or, for a streamed answer, against the digest in its
 * trailers and their MAC. A mismatch fails the body (the reader sees an error, never a complete
 * body the owner did not send).
 */
final class VerifiedBody implements Flow.Publisher<ByteBuffer> {
    private final Flow.Publisher<ByteBuffer> inner;
    private final Supplier<MultiMap> trailers;
    private final String signedSha256;
    private final PeerAuth auth;
    private final String nonce;
    private final String answerMac;

    /**
     * @param signedSha256 the digest from the signed head, or {@link PeerSignature#BODY_IN_TRAILER}
     * @param trailers     the answer's trailers (read once the body ended)
     */
    VerifiedBody(Flow.Publisher<ByteBuffer> inner, Supplier<MultiMap> trailers, String signedSha256, PeerAuth auth, String nonce,
                 String answerMac) {
        this.inner = inner;
        this.trailers = trailers;
        this.signedSha256 = signedSha256;
        this.auth = auth;
        this.nonce = nonce;
        this.answerMac = answerMac;
    }

    /** True when a body whose digest is {@code sha256} is the one the answer signed. */
    boolean matches(String sha256) {
        if (!PeerSignature.BODY_IN_TRAILER.equals(signedSha256)) {
            return PeerSignature.sameHex(sha256, signedSha256);
        }
        MultiMap t = trailers.get();
        String hash = t == null ? null : t.get(PeerSignature.H_BODY);
        return hash != null && PeerSignature.sameHex(sha256, hash)
                && auth.bodyAuthentic(nonce, answerMac, hash, t.get(PeerSignature.H_BODY_MAC));
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> s) {
        inner.subscribe(new DigestingSubscriber(s, hash -> matches(hash) ? null
                : new IllegalStateException("the owner's answer body does not match its signed digest: discarded")));
    }
}
