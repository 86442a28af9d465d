package dev.cellgate.gateway.peer;

import dev.cellgate.core.fleet.PeerSignature;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.Flow;
import java.util.function.Function;

/**
 * Passes a body through and hashes it on the way (SHA-256). At its end {@code atEnd} gets the
 * digest (64 hex) and says how the body ends: null completes it, an error fails it. Both halves
 * of a signed streamed answer use it: the owner to sign the digest in a trailer, the caller to
 * check it.
 */
final class DigestingSubscriber implements Flow.Subscriber<ByteBuffer> {
    private final Flow.Subscriber<? super ByteBuffer> out;
    private final Function<String, Throwable> atEnd;
    private final MessageDigest digest = PeerSignature.sha256Digest();

    DigestingSubscriber(Flow.Subscriber<? super ByteBuffer> out, Function<String, Throwable> atEnd) {
        this.out = out;
        this.atEnd = atEnd;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        out.onSubscribe(s);
    }

    @Override
    public void onNext(ByteBuffer item) {
        digest.update(item.duplicate());
        out.onNext(item);
    }

    @Override
    public void onError(Throwable t) {
        out.onError(t);
    }

    @Override
    public void onComplete() {
        Throwable failure = atEnd.apply(HexFormat.of().formatHex(digest.digest()));
        if (failure == null) {
            out.onComplete();
        } else {
            out.onError(failure);
        }
    }
}
