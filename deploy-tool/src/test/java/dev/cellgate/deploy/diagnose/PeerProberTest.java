package dev.cellgate.deploy.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How probe answers become verdicts; the signed probe against a real node is in {@link DiagnoseRealNodeTest}. */
class PeerProberTest {
    @Test
    void aHealthyAnswer() {
        PeerProber.Outcome o = PeerProber.judge("n1", "h:1", 200,
                "{\"node\":\"n1\",\"protocol\":2,\"draining\":false,\"load\":{\"resident\":3}}", true, 5);
        assertThat(o.ok()).isTrue();
        assertThat(o.authOk()).isTrue();
        assertThat(o.protocol()).isEqualTo(2);
        assertThat(o.load().getInteger("resident")).isEqualTo(3);
    }

    @Test
    void refusalsAndMismatchesNameTheirCause() {
        assertThat(PeerProber.judge("n1", "h:1", 401, "{\"error\":\"bad peer signature\"}", false, 1).problems())
                .singleElement().asString().contains("refused our signature (401: bad peer signature)").contains("another fleet's key");
        assertThat(PeerProber.judge("n1", "h:1", 426, "{\"error\":\"v\"}", false, 1).problems()).singleElement().asString()
                .contains("another peer protocol version");
        assertThat(PeerProber.judge("n1", "h:1", 404, "nope", false, 1).problems()).singleElement().asString()
                .contains("not a cellgate internal listener");
        assertThat(PeerProber.judge("n1", "h:1", 409, "{\"error\":\"request is for node n1, this is n2\"}", false, 1).problems())
                .singleElement().asString().contains("belongs to another node");
        assertThat(PeerProber.judge("n1", "h:1", 200, "{\"node\":\"n2\",\"protocol\":2}", true, 1).problems())
                .singleElement().asString().contains("answered as node 'n2'");
        assertThat(PeerProber.judge("n1", "h:1", 200, "{\"node\":\"n1\",\"protocol\":3}", true, 1).problems())
                .singleElement().asString().contains("reports peer protocol 3");
        assertThat(PeerProber.judge("n1", "h:1", 200, "{\"node\":\"n1\",\"protocol\":2}", false, 1).problems())
                .singleElement().asString().contains("without a valid answer signature");
        assertThat(PeerProber.judge("n1", "h:1", 200, "<html>", true, 1).problems())
                .singleElement().asString().contains("not a JSON object");
    }

    @Test
    void nothingListeningIsUnreachable() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        PeerProber.Outcome o = new PeerProber(new dev.cellgate.core.fleet.PeerSignature("ab".repeat(32)), Duration.ofSeconds(3))
                .probe("n1", AdvertiseAddress.parse("127.0.0.1:" + port)).join();
        assertThat(o.reachable()).isFalse();
        assertThat(o.problems()).singleElement().asString().contains("unreachable at 127.0.0.1:" + port).contains("connection refused");
    }
}
