package dev.cellgate.gateway.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PeerAuthTest {
    static final String KEY = "0123456789abcdef".repeat(4);
    static final long NOW = 1_800_000_000_000L;
    final PeerAuth auth = new PeerAuth(KEY);
    final NonceWindow nonces = new NonceWindow(65_000);
    final byte[] body = "{\"x\":1}".getBytes(StandardCharsets.UTF_8);

    PeerAuth.Signed signed() {
        return auth.sign("POST", "/peer/v1/call/A:x?method=m", body, "n1", "n2", NOW);
    }

    PeerAuth.Refusal verify(PeerAuth.Signed s, byte[] b, String self, long now) {
        return auth.verify("POST", "/peer/v1/call/A:x?method=m", b, s, self, now, nonces);
    }

    @Test
    void authenticRequestPassesOnce() {
        PeerAuth.Signed s = signed();
        assertThat(verify(s, body, "n2", NOW + 1000)).isNull();
        PeerAuth.Refusal replay = verify(s, body, "n2", NOW + 2000);
        assertThat(replay.status()).isEqualTo(409);
        assertThat(replay.reason()).contains("replayed");
    }

    @Test
    void forgedMacTamperedBodyOrPathAreUnauthorized() {
        PeerAuth.Signed s = signed();
        PeerAuth.Signed forged = new PeerAuth.Signed(s.version(), s.source(), s.target(), s.ts(), s.nonce(), s.bodySha256(),
                s.mac().substring(0, 63) + (s.mac().endsWith("0") ? "1" : "0"));
        assertThat(verify(forged, body, "n2", NOW).status()).isEqualTo(401);
        assertThat(verify(s, "{\"x\":2}".getBytes(StandardCharsets.UTF_8), "n2", NOW).status()).isEqualTo(401);
        assertThat(auth.verify("POST", "/peer/v1/call/A:x?method=evil", body, s, "n2", NOW, nonces).status()).isEqualTo(401);
        assertThat(new PeerAuth("f".repeat(64)).verify("POST", "/peer/v1/call/A:x?method=m", body, s, "n2", NOW, nonces).status())
                .as("another fleet's key").isEqualTo(401);
    }

    @Test
    void staleOrFutureTimestampsAreUnauthorized() {
        assertThat(verify(signed(), body, "n2", NOW + 30_001).status()).isEqualTo(401);
        assertThat(verify(signed(), body, "n2", NOW - 30_001).status()).isEqualTo(401);
        assertThat(verify(signed(), body, "n2", NOW + 29_000)).isNull();
    }

    @Test
    void wrongTargetConflictsAndOtherVersionNeedsUpgrade() {
        assertThat(verify(signed(), body, "n3", NOW).status()).isEqualTo(409);
        PeerAuth.Signed s = signed();
        PeerAuth.Signed v2 = new PeerAuth.Signed("2", s.source(), s.target(), s.ts(), s.nonce(), s.bodySha256(), s.mac());
        assertThat(verify(v2, body, "n2", NOW).status()).isEqualTo(426);
    }
}
