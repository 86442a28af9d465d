package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.fleet.PeerSignature.Answer;
import dev.cellgate.core.fleet.PeerSignature.Envelope;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class PeerSignatureTest {
    static final String KEY = "0123456789abcdef".repeat(4);
    static final byte[] BODY = "{\"x\":1}".getBytes(StandardCharsets.UTF_8);
    static final String BODY_HASH = "5041bf1f713df204784353e82f6a4a535931cb64f1f4b4a5aeaffcb720918b22";
    static final String NONCE = "00112233445566778899aabbccddeeff";
    final PeerSignature sig = new PeerSignature(KEY);

    /**
     * The wire format, pinned by values computed outside Java:
     * {@code printf 'cellgate-peer\n2\nGET\n/peer/v1/probe\n<sha256 of body>\ndeploy-tool\nn2\n1800000000000\n<nonce>\n\n\n\n'
     * | openssl dgst -sha256 -mac HMAC -macopt hexkey:<key>} (the four empty fields: no forwarded
     * envelope). Nodes and deploy-tool both sign with this class; a change to a canonical string
     * breaks every mixed-version fleet, so it must be a deliberate protocol version bump, not an accident.
     */
    @Test
    void requestMacMatchesAnIndependentlyComputedValue() {
        PeerSignature.Signed s = sig.sign("GET", "/peer/v1/probe", BODY, "deploy-tool", "n2", 1_800_000_000_000L, Envelope.NONE, NONCE);
        assertThat(s.bodySha256()).isEqualTo(BODY_HASH);
        assertThat(s.mac()).isEqualTo("e37f0aba8a8fb5c3554fe48ea7e7c142301dd3d82eb167fbea6ebbd136b964e9");
        assertThat(s.version()).isEqualTo("2");
        assertThat(s.ts()).isEqualTo("1800000000000");
    }

    /** {@code printf 'cellgate-peer\n2\nPOST\n/peer/v1/fetch/C:ab?name=x\n<hash>\nn1\nn2\n1800000000000\n<nonce>\nPUT\nhttps://app/x?y=1\nW1siYSIsIjEiXV0\nreq-7'}. */
    @Test
    void theForwardedEnvelopeIsInTheRequestMac() {
        PeerSignature.Signed s = sig.sign("POST", "/peer/v1/fetch/C:ab?name=x", BODY, "n1", "n2", 1_800_000_000_000L,
                new Envelope("PUT", "https://app/x?y=1", "W1siYSIsIjEiXV0", "req-7"), NONCE);
        assertThat(s.mac()).isEqualTo("7d1211bbc16e96ac2f03746535f9b179d1a4e37bf2b2f2d16f3f387e29ab0cc6");
    }

    /** {@code printf 'cellgate-peer-answer\n2\n<nonce>\n409\nnot-owner\nn3\n\n\n\n<hash>'} and {@code 'cellgate-peer-body\n2\n<nonce>\nabc\n<hash>'}. */
    @Test
    void answerAndTrailerMacsMatchIndependentlyComputedValues() {
        Answer a = new Answer(409, "not-owner", "n3", null, null, null, BODY_HASH);
        assertThat(sig.answerMac(NONCE, a)).isEqualTo("2e2df934c5cdaf019132bea90aba1c73b54b2a1467333916b9ac37467eba6a8b");
        assertThat(sig.answerAuthentic(NONCE, a, "2e2df934c5cdaf019132bea90aba1c73b54b2a1467333916b9ac37467eba6a8b")).isTrue();
        assertThat(sig.bodyMac(NONCE, "abc", BODY_HASH)).isEqualTo("1c8928b83153bd0ec06fd9c3746205bd05d2bf8911a5beef4db2c380452c4b94");
    }

    @Test
    void emptyAndNullBodiesHashAlike() {
        assertThat(PeerSignature.sha256(null)).isEqualTo(PeerSignature.sha256(new byte[0]))
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void everySignedRequestFieldChangesTheMac() {
        Envelope e = new Envelope("GET", "http://u/", "hs", "r");
        String base = sig.requestMac("2", "GET", "/p", "h", "a", "b", "1", "n", e);
        List<String> changed = List.of(
                sig.requestMac("1", "GET", "/p", "h", "a", "b", "1", "n", e),
                sig.requestMac("2", "POST", "/p", "h", "a", "b", "1", "n", e),
                sig.requestMac("2", "GET", "/q", "h", "a", "b", "1", "n", e),
                sig.requestMac("2", "GET", "/p", "i", "a", "b", "1", "n", e),
                sig.requestMac("2", "GET", "/p", "h", "c", "b", "1", "n", e),
                sig.requestMac("2", "GET", "/p", "h", "a", "c", "1", "n", e),
                sig.requestMac("2", "GET", "/p", "h", "a", "b", "2", "n", e),
                sig.requestMac("2", "GET", "/p", "h", "a", "b", "1", "m", e),
                sig.requestMac("2", "GET", "/p", "h", "a", "b", "1", "n", new Envelope("PUT", "http://u/", "hs", "r")),
                sig.requestMac("2", "GET", "/p", "h", "a", "b", "1", "n", new Envelope("GET", "http://v/", "hs", "r")),
                sig.requestMac("2", "GET", "/p", "h", "a", "b", "1", "n", new Envelope("GET", "http://u/", "ht", "r")),
                sig.requestMac("2", "GET", "/p", "h", "a", "b", "1", "n", new Envelope("GET", "http://u/", "hs", "s")),
                new PeerSignature("f".repeat(64)).requestMac("2", "GET", "/p", "h", "a", "b", "1", "n", e));
        assertThat(changed).doesNotContain(base).doesNotHaveDuplicates();
        assertThat(PeerSignature.sameHex(base, sig.requestMac("2", "GET", "/p", "h", "a", "b", "1", "n", e))).isTrue();
    }

    @Test
    void everySignedAnswerFieldChangesTheMac() {
        Answer a = new Answer(200, "ok", "o", "1", "OK", "hs", "h");
        String base = sig.answerMac("n", a);
        List<UnaryOperator<Answer>> edits = List.of(
                x -> new Answer(201, x.result(), x.owner(), x.retryable(), x.statusText(), x.headers(), x.bodySha256()),
                x -> new Answer(x.status(), "not-owner", x.owner(), x.retryable(), x.statusText(), x.headers(), x.bodySha256()),
                x -> new Answer(x.status(), x.result(), "p", x.retryable(), x.statusText(), x.headers(), x.bodySha256()),
                x -> new Answer(x.status(), x.result(), x.owner(), "0", x.statusText(), x.headers(), x.bodySha256()),
                x -> new Answer(x.status(), x.result(), x.owner(), x.retryable(), "Fine", x.headers(), x.bodySha256()),
                x -> new Answer(x.status(), x.result(), x.owner(), x.retryable(), x.statusText(), "ht", x.bodySha256()),
                x -> new Answer(x.status(), x.result(), x.owner(), x.retryable(), x.statusText(), x.headers(), "i"));
        for (UnaryOperator<Answer> edit : edits) {
            Answer changed = edit.apply(a);
            assertThat(sig.answerMac("n", changed)).as("%s", changed).isNotEqualTo(base);
            assertThat(sig.answerAuthentic("n", changed, base)).isFalse();
        }
        assertThat(sig.answerMac("m", a)).as("another request's nonce").isNotEqualTo(base);
        assertThat(sig.answerAuthentic("n", a, null)).as("no MAC").isFalse();
        assertThat(sig.answerAuthentic("n", a, base)).isTrue();
    }

    @Test
    void aFieldWithANewlineCannotBeSignedSoTheJoinedFormStaysUnambiguous() {
        assertThatThrownBy(() -> sig.sign("GET", "/p\nx", null, "a", "b", 1, Envelope.NONE)).isInstanceOf(IllegalArgumentException.class);
        assertThat(sig.answerAuthentic("n", new Answer(200, "ok\nnot-owner", "", "", "", "", ""), "0".repeat(64))).isFalse();
    }

    @Test
    void freshNoncesDiffer() {
        assertThat(sig.sign("GET", "/p", null, "a", "b", 1, Envelope.NONE).nonce())
                .isNotEqualTo(sig.sign("GET", "/p", null, "a", "b", 1, Envelope.NONE).nonce());
    }
}
