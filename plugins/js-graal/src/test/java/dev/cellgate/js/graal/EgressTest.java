package dev.cellgate.js.graal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.EgressPolicy;
import dev.cellgate.core.spi.js.Egress;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.OriginServer;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Worker egress (SPEC §19, issue 30 item 6): {@code fetch} to loopback (by address or by a name
 * that resolves there), link-local (the metadata service 169.254.169.254), an unspecified address,
 * or through a redirect to one of them, is refused with an Error naming the destination and
 * {@code CELLD_EGRESS_ALLOW}, and never reaches it; a destination the allow list names is reached.
 */
class EgressTest {
    static final String WORKER = """
            export default {
              async fetch(req) {
                const target = new URL(req.url).searchParams.get('url');
                try {
                  const r = await fetch(target, { signal: AbortSignal.timeout(20000) });
                  return new Response('reached ' + r.status + ' ' + await r.text());
                } catch (e) {
                  return new Response('refused ' + e.name + ': ' + e.message, { status: 502 });
                }
              }
            };
            """;

    static final io.vertx.core.Vertx ORIGIN_VERTX = io.vertx.core.Vertx.vertx();
    TestEngine engine;
    OriginServer origin = OriginServer.start(ORIGIN_VERTX);
    TestWorker worker;

    void start(Egress egress) throws Exception {
        engine = new TestEngine(egress);
        worker = engine.worker(Bundles.single(WORKER));
    }

    @AfterEach
    void stop() throws Exception {
        if (worker != null) {
            worker.close();
        }
        origin.close();
        if (engine != null) {
            engine.close();
        }
    }

    String fetchFromWorker(String url) throws Exception {
        return worker.text("http://w/?url=" + URLEncoder.encode(url, StandardCharsets.UTF_8));
    }

    @Test
    void loopbackIsRefusedByDefaultAndNeverReached() throws Exception {
        start(Egress.of(EgressPolicy.DEFAULT));
        String answer = fetchFromWorker(origin.url() + "/text");
        assertThat(answer).startsWith("refused Error: ").contains("127.0.0.1:" + origin.port()).contains("loopback")
                .contains("CELLD_EGRESS_ALLOW");
        assertThat(fetchFromWorker("http://0.0.0.0:" + origin.port() + "/text")).as("the unspecified address reaches this host")
                .startsWith("refused Error: ").contains("unspecified");
        assertThat(fetchFromWorker("http://[::1]:" + origin.port() + "/text")).startsWith("refused Error: ").contains("loopback");
        assertThat(origin.requests()).as("nothing reached the origin").isZero();
    }

    @Test
    void theMetadataServiceIsRefused() throws Exception {
        start(Egress.of(EgressPolicy.DEFAULT));
        assertThat(fetchFromWorker("http://169.254.169.254/latest/meta-data/")).startsWith("refused Error: ")
                .contains("169.254.169.254:80").contains("cloud metadata service").contains("CELLD_EGRESS_ALLOW");
    }

    @Test
    void aListedDestinationIsReachedAndARedirectToARefusedOneIsRefused() throws Exception {
        start(Egress.of(EgressPolicy.of("127.0.0.1", null)));
        assertThat(fetchFromWorker(origin.url() + "/text")).isEqualTo("reached 200 origin text");
        String redirect = origin.url() + "/redirect?to=" + URLEncoder.encode("http://169.254.169.254/", StandardCharsets.UTF_8);
        assertThat(fetchFromWorker(redirect)).startsWith("refused Error: ").contains("169.254.169.254");
        assertThat(origin.requests()).as("the first fetch and the redirect").isEqualTo(2);
    }

    @Test
    void theDenyListRefusesWhatTheAllowListWouldLetThrough() throws Exception {
        start(Egress.of(EgressPolicy.of("127.0.0.0/8", "127.0.0.1:" + origin.port())));
        assertThat(fetchFromWorker(origin.url() + "/text")).startsWith("refused Error: ").contains("CELLD_EGRESS_DENY");
        assertThat(origin.requests()).isZero();
    }

    /**
     * The check that a fetch by a name resolving to loopback ({@code localhost}) is refused and never
     * reaches the origin (DNS names are judged by the address they resolve to): what went wrong, or null.
     */
    String nameResolvingToLoopbackProblem(EgressPolicy policy) throws Exception {
        start(Egress.of(policy));
        String answer = fetchFromWorker("http://localhost:" + origin.port() + "/text");
        if (!answer.startsWith("refused Error: ") || !answer.contains("localhost") || !answer.contains("loopback")) {
            return "not refused: " + answer;
        }
        return origin.requests() == 0 ? null : "the origin was reached " + origin.requests() + " time(s)";
    }

    @Test
    void aNameResolvingToLoopbackIsRefused() throws Exception {
        assertThat(nameResolvingToLoopbackProblem(EgressPolicy.DEFAULT)).isNull();
    }

    @Test
    void theCheckCatchesAPolicyThatJudgesLiteralsOnly() throws Exception {
        assertThat(nameResolvingToLoopbackProblem(EgressPolicy.DEFAULT.judgingLiteralsOnly()))
                .isEqualTo("not refused: reached 200 origin text");
    }
}
