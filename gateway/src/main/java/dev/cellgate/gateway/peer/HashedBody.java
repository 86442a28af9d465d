package dev.cellgate.gateway.peer;

import dev.cellgate.core.fleet.PeerSignature;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;

/**
 * A peer request's body, read after its head was authenticated: hashed as it streams (the caller
 * compares the digest with the signed one) and bounded, so a body can never grow past the limit
 * in memory.
 */
final class HashedBody {
    /** The bytes and their SHA-256 (64 hex). */
    record Read(byte[] bytes, String sha256) {
    }

    /** The body went past the limit. */
    static final class TooLarge extends RuntimeException {
        TooLarge(long max) {
            super("body over " + max + " bytes", null, false, false);
        }
    }

    private HashedBody() {
    }

    /** Reads the (paused) request's body. Fails with {@link TooLarge} past {@code maxBytes}. */
    static CompletableFuture<Read> read(HttpServerRequest req, long maxBytes) {
        CompletableFuture<Read> out = new CompletableFuture<>();
        MessageDigest digest = PeerSignature.sha256Digest();
        Buffer buf = Buffer.buffer();
        req.handler(chunk -> {
            if (out.isDone()) {
                return;
            }
            if (buf.length() + (long) chunk.length() > maxBytes) {
                out.completeExceptionally(new TooLarge(maxBytes));
                return;
            }
            digest.update(chunk.getBytes());
            buf.appendBuffer(chunk);
        });
        req.exceptionHandler(out::completeExceptionally);
        req.endHandler(v -> out.complete(new Read(buf.getBytes(), HexFormat.of().formatHex(digest.digest()))));
        req.resume();
        return out;
    }
}
