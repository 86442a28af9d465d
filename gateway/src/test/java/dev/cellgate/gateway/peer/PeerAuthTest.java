package dev.cellgate.gateway.peer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.fleet.PeerSignature.Answer;
import dev.cellgate.core.fleet.PeerSignature.Envelope;
import dev.cellgate.core.fleet.PeerSignature.Signed;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class PeerAuthTest {
    static final String KEY = "0123456789abcdef".repeat(4);
    static final long NOW = 1_800_000_000_000L;
    static final String PATH = "/peer/v1/fetch/A:x?name=n";
    static final Envelope ENVELOPE = new Envelope("POST", "https://app/orders", "W1siYSIsIjEiXV0", "req-1");
    final PeerAuth auth = new PeerAuth(KEY);
    final NonceWindow nonces = new NonceWindow(65_000);
    final byte[] body = "{\"x\":1}".getBytes(StandardCharsets.UTF_8);

    Signed signed() {
        return auth.sign("POST", PATH, body, "n1", "n2", NOW, ENVELOPE);
    }

    PeerAuth.Refusal verify(Signed s, Envelope e, String self, long now) {
        return auth.verifyHead("POST", PATH, s, e, self, now, nonces);
    }

    static Signed with(Signed s, String version, String mac) {
        return new Signed(version, s.source(), s.target(), s.ts(), s.nonce(), s.bodySha256(), mac);
    }

    @Test
    void authenticRequestPassesOnce() {
        Signed s = signed();
        assertThat(verify(s, ENVELOPE, "n2", NOW + 1000)).isNull();
        PeerAuth.Refusal replay = verify(s, ENVELOPE, "n2", NOW + 2000);
        assertThat(replay.status()).isEqualTo(409);
        assertThat(replay.reason()).contains("replayed");
    }

    @Test
    void forgedMacOrTamperedPathOrKeyAreUnauthorized() {
        Signed s = signed();
        assertThat(verify(with(s, s.version(), s.mac().substring(0, 63) + (s.mac().endsWith("0") ? "1" : "0")), ENVELOPE, "n2", NOW)
                .status()).isEqualTo(401);
        assertThat(auth.verifyHead("POST", "/peer/v1/fetch/A:x?name=evil", s, ENVELOPE, "n2", NOW, nonces).status()).isEqualTo(401);
        assertThat(auth.verifyHead("PUT", PATH, s, ENVELOPE, "n2", NOW, nonces).status()).isEqualTo(401);
        assertThat(new PeerAuth("f".repeat(64)).verifyHead("POST", PATH, s, ENVELOPE, "n2", NOW, nonces).status())
                .as("another fleet's key").isEqualTo(401);
        assertThat(verify(new Signed(s.version(), s.source(), s.target(), s.ts(), s.nonce(), s.bodySha256(), null), ENVELOPE, "n2", NOW)
                .status()).as("no MAC").isEqualTo(401);
    }

    @Test
    void everyEnvelopeFieldIsCoveredByTheMac() {
        List<Envelope> tampered = List.of(
                new Envelope("GET", ENVELOPE.url(), ENVELOPE.headers(), ENVELOPE.requestId()),
                new Envelope(ENVELOPE.method(), "https://app/admin", ENVELOPE.headers(), ENVELOPE.requestId()),
                new Envelope(ENVELOPE.method(), ENVELOPE.url(), "W1siYSIsIjIiXV0", ENVELOPE.requestId()),
                new Envelope(ENVELOPE.method(), ENVELOPE.url(), ENVELOPE.headers(), "req-2"),
                Envelope.NONE);
        for (Envelope e : tampered) {
            PeerAuth.Refusal r = verify(signed(), e, "n2", NOW);
            assertThat(r).as("%s", e).isNotNull();
            assertThat(r.status()).as("%s", e).isEqualTo(401);
        }
    }

    @Test
    void theBodyIsCheckedAgainstTheSignedDigestAfterTheHead() {
        Signed s = signed();
        assertThat(verify(s, ENVELOPE, "n2", NOW)).as("the head alone is authentic").isNull();
        assertThat(PeerAuth.bodyMatches(s, PeerAuth.sha256(body))).isTrue();
        assertThat(PeerAuth.bodyMatches(s, PeerAuth.sha256("{\"x\":2}".getBytes(StandardCharsets.UTF_8)))).isFalse();
        Signed otherDigest = new Signed(s.version(), s.source(), s.target(), s.ts(), s.nonce(), PeerAuth.sha256(new byte[0]), s.mac());
        assertThat(verify(otherDigest, ENVELOPE, "n2", NOW).status()).as("the declared digest is in the MAC").isEqualTo(401);
    }

    @Test
    void staleOrFutureTimestampsAreUnauthorized() {
        assertThat(verify(signed(), ENVELOPE, "n2", NOW + 30_001).status()).isEqualTo(401);
        assertThat(verify(signed(), ENVELOPE, "n2", NOW - 30_001).status()).isEqualTo(401);
        assertThat(verify(signed(), ENVELOPE, "n2", NOW + 29_000)).isNull();
    }

    @Test
    void wrongTargetConflictsAndOtherVersionsNeedUpgrade() {
        assertThat(verify(signed(), ENVELOPE, "n3", NOW).status()).isEqualTo(409);
        Signed s = signed();
        assertThat(verify(with(s, "1", s.mac()), ENVELOPE, "n2", NOW).status()).as("a v1 peer").isEqualTo(426);
        assertThat(verify(with(s, "3", s.mac()), ENVELOPE, "n2", NOW).status()).isEqualTo(426);
    }

    @Test
    void anAnswerIsAuthenticOnlyForItsRequestAndWithEveryFieldIntact() {
        String nonce = signed().nonce();
        Answer notOwner = new Answer(409, "not-owner", "n3", null, null, null, PeerAuth.sha256(new byte[0]));
        String mac = auth.answerMac(nonce, notOwner);
        assertThat(auth.answerAuthentic(nonce, notOwner, mac)).isTrue();
        assertThat(auth.answerAuthentic(nonce, notOwner, null)).as("unsigned").isFalse();
        assertThat(auth.answerAuthentic(signed().nonce(), notOwner, mac)).as("another request's answer").isFalse();
        List<UnaryOperator<Answer>> edits = List.of(
                a -> new Answer(200, a.result(), a.owner(), a.retryable(), a.statusText(), a.headers(), a.bodySha256()),
                a -> new Answer(a.status(), "draining", a.owner(), a.retryable(), a.statusText(), a.headers(), a.bodySha256()),
                a -> new Answer(a.status(), a.result(), "n9", a.retryable(), a.statusText(), a.headers(), a.bodySha256()),
                a -> new Answer(a.status(), a.result(), a.owner(), "1", a.statusText(), a.headers(), a.bodySha256()),
                a -> new Answer(a.status(), a.result(), a.owner(), a.retryable(), "Conflict", a.headers(), a.bodySha256()),
                a -> new Answer(a.status(), a.result(), a.owner(), a.retryable(), a.statusText(), "W10", a.bodySha256()),
                a -> new Answer(a.status(), a.result(), a.owner(), a.retryable(), a.statusText(), a.headers(), PeerAuth.sha256(body)));
        for (UnaryOperator<Answer> edit : edits) {
            assertThat(auth.answerAuthentic(nonce, edit.apply(notOwner), mac)).as("%s", edit.apply(notOwner)).isFalse();
        }
    }

    @Test
    void aStreamedAnswersTrailerBindsItsDigestToTheAnswer() {
        String nonce = signed().nonce();
        String answerMac = auth.answerMac(nonce, new Answer(200, "ok", null, null, null, "W10", "trailer"));
        String digest = PeerAuth.sha256(body);
        String trailer = auth.bodyMac(nonce, answerMac, digest);
        assertThat(auth.bodyAuthentic(nonce, answerMac, digest, trailer)).isTrue();
        assertThat(auth.bodyAuthentic(nonce, answerMac, PeerAuth.sha256(new byte[0]), trailer)).as("another body").isFalse();
        assertThat(auth.bodyAuthentic(nonce, "0".repeat(64), digest, trailer)).as("another answer").isFalse();
        assertThat(auth.bodyAuthentic(nonce, answerMac, digest, null)).as("no trailer").isFalse();
    }
}
