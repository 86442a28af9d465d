package dev.cellgate.gateway.peer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.fleet.PeerSignature;
import io.vertx.core.MultiMap;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A peer answer's body reaches the Worker complete only when it is the body the owner signed. */
class VerifiedBodyTest {
    final PeerAuth auth = new PeerAuth("0123456789abcdef".repeat(4));
    final String nonce = "00112233445566778899aabbccddeeff";
    final String answerMac = "ab".repeat(32);
    static final String BODY = "abcdef";

    /** What the reader of the body saw: its text, or the error that ended it. */
    static String read(Flow.Publisher<ByteBuffer> body) throws Exception {
        CompletableFuture<String> out = new CompletableFuture<>();
        StringBuilder sb = new StringBuilder();
        body.subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer item) {
                sb.append(StandardCharsets.UTF_8.decode(item));
            }

            @Override
            public void onError(Throwable t) {
                out.complete("error: " + t.getMessage());
            }

            @Override
            public void onComplete() {
                out.complete(sb.toString());
            }
        });
        return out.get(10, TimeUnit.SECONDS);
    }

    static Flow.Publisher<ByteBuffer> chunks(String... parts) {
        return s -> {
            SubmissionPublisher<ByteBuffer> p = new SubmissionPublisher<>();
            p.subscribe(s);
            for (String part : parts) {
                p.submit(ByteBuffer.wrap(part.getBytes(StandardCharsets.UTF_8)));
            }
            p.close();
        };
    }

    VerifiedBody streamed(MultiMap trailers, String... parts) {
        return new VerifiedBody(chunks(parts), () -> trailers, PeerSignature.BODY_IN_TRAILER, auth, nonce, answerMac);
    }

    MultiMap trailers(String hash, String mac) {
        MultiMap t = MultiMap.caseInsensitiveMultiMap();
        if (hash != null) {
            t.add(PeerSignature.H_BODY, hash);
        }
        if (mac != null) {
            t.add(PeerSignature.H_BODY_MAC, mac);
        }
        return t;
    }

    @Test
    void aStreamedBodyWithItsSignedTrailerArrivesWhole() throws Exception {
        String hash = PeerSignature.sha256(BODY.getBytes(StandardCharsets.UTF_8));
        assertThat(read(streamed(trailers(hash, auth.bodyMac(nonce, answerMac, hash)), "ab", "cd", "ef"))).isEqualTo(BODY);
    }

    @Test
    void aStreamedBodyFailsWhenItsTrailerIsMissingForgedOrForAnotherBody() throws Exception {
        String hash = PeerSignature.sha256(BODY.getBytes(StandardCharsets.UTF_8));
        String mac = auth.bodyMac(nonce, answerMac, hash);
        assertThat(read(streamed(trailers(null, null), "ab", "cd", "ef"))).as("no trailer").startsWith("error:");
        assertThat(read(streamed(trailers(hash, "0".repeat(64)), "ab", "cd", "ef"))).as("forged MAC").startsWith("error:");
        assertThat(read(streamed(trailers(hash, mac), "ab", "cd", "eX"))).as("a changed body").startsWith("error:");
        String other = PeerSignature.sha256("abcdeX".getBytes(StandardCharsets.UTF_8));
        assertThat(read(streamed(trailers(other, mac), "ab", "cd", "eX"))).as("the hash changed to match, the MAC not").startsWith("error:");
        assertThat(read(streamed(trailers(hash, auth.bodyMac("ff".repeat(16), answerMac, hash)), "ab", "cd", "ef")))
                .as("another request's trailer").startsWith("error:");
    }

    @Test
    void aBodyWhoseDigestWasInTheSignedHeadMustMatchIt() throws Exception {
        String hash = PeerSignature.sha256(BODY.getBytes(StandardCharsets.UTF_8));
        assertThat(read(new VerifiedBody(chunks("abc", "def"), () -> null, hash, auth, nonce, answerMac))).isEqualTo(BODY);
        assertThat(read(new VerifiedBody(chunks("abc", "deX"), () -> null, hash, auth, nonce, answerMac)))
                .isEqualTo("error: the owner's answer body does not match its signed digest: discarded");
    }
}
