package dev.cellgate.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OperatorSignatureTest {
    static final String KEY = "5a".repeat(32);
    static final long NOW = 1_700_000_000_000L;
    final OperatorSignature sig = new OperatorSignature(KEY);

    OperatorSignature.Signed signed() {
        return sig.sign("n1", "POST", "/shutdown?handoff=preserve", new byte[0], NOW, "00ff");
    }

    @Test
    void aCallSignedForThisNodeWithinTheWindowPasses() {
        assertThat(sig.refusal("POST", "/shutdown?handoff=preserve", new byte[0], signed(), "n1", NOW + 29_000)).isNull();
        assertThat(sig.refusal("POST", "/shutdown?handoff=preserve", null, signed(), "n1", NOW - 29_000)).as("null is the empty body").isNull();
    }

    @Test
    void everySignedFieldIsCovered() {
        OperatorSignature.Signed s = signed();
        assertThat(sig.refusal("PUT", "/shutdown?handoff=preserve", new byte[0], s, "n1", NOW)).contains("bad operator signature");
        assertThat(sig.refusal("POST", "/shutdown", new byte[0], s, "n1", NOW)).as("the query").contains("bad operator signature");
        assertThat(sig.refusal("POST", "/shutdown?handoff=preserve", "x".getBytes(StandardCharsets.UTF_8), s, "n1", NOW))
                .contains("body does not match");
        for (OperatorSignature.Signed t : new OperatorSignature.Signed[] {
            new OperatorSignature.Signed("n2", s.ts(), s.nonce(), s.bodySha256(), s.mac()),
            new OperatorSignature.Signed(s.target(), Long.toString(NOW + 1), s.nonce(), s.bodySha256(), s.mac()),
            new OperatorSignature.Signed(s.target(), s.ts(), "00fe", s.bodySha256(), s.mac()),
            new OperatorSignature.Signed(s.target(), s.ts(), s.nonce(), PeerSignature.sha256("x".getBytes(StandardCharsets.UTF_8)), s.mac())}) {
            assertThat(sig.refusal("POST", "/shutdown?handoff=preserve", new byte[0], t, "n1", NOW)).isNotNull();
        }
        assertThat(new OperatorSignature("6b".repeat(32)).refusal("POST", "/shutdown?handoff=preserve", new byte[0], s, "n1", NOW))
                .as("another fleet's key").contains("bad operator signature");
    }

    @Test
    void staleMisdirectedAndIncompleteCallsAreRefused() {
        assertThat(sig.refusal("POST", "/shutdown?handoff=preserve", new byte[0], signed(), "n1", NOW + 30_001)).contains("timestamp");
        assertThat(sig.refusal("POST", "/shutdown?handoff=preserve", new byte[0], signed(), "n1", NOW - 30_001)).contains("timestamp");
        assertThat(sig.refusal("POST", "/shutdown?handoff=preserve", new byte[0], signed(), "n2", NOW)).contains("signed for node n1");
        OperatorSignature.Signed s = signed();
        assertThat(sig.refusal("POST", "/x", new byte[0], new OperatorSignature.Signed(s.target(), s.ts(), s.nonce(), s.bodySha256(), null),
                "n1", NOW)).contains("missing");
    }

    @Test
    void aPeerSignatureOfTheSameFieldsIsNoOperatorSignature() {
        PeerSignature peer = new PeerSignature(KEY);
        PeerSignature.Signed p = peer.sign("POST", "/shutdown", new byte[0], "n1", "n1", NOW, PeerSignature.Envelope.NONE, "00ff");
        OperatorSignature.Signed asOperator = new OperatorSignature.Signed("n1", p.ts(), p.nonce(), p.bodySha256(), p.mac());
        assertThat(sig.refusal("POST", "/shutdown", new byte[0], asOperator, "n1", NOW)).contains("bad operator signature");
        // Nor is a peer's signed answer (protocol v2), which a node sends to whoever it answers.
        String answerMac = peer.answerMac("00ff", new PeerSignature.Answer(200, "ok", null, null, null, null, p.bodySha256()));
        OperatorSignature.Signed answerAsOperator = new OperatorSignature.Signed("n1", p.ts(), "00ff", p.bodySha256(), answerMac);
        assertThat(sig.refusal("POST", "/shutdown", new byte[0], answerAsOperator, "n1", NOW)).contains("bad operator signature");
        assertThat(signed().headers()).containsOnlyKeys(OperatorSignature.H_TARGET, OperatorSignature.H_TS, OperatorSignature.H_NONCE,
                OperatorSignature.H_BODY, OperatorSignature.H_MAC);
    }
}
