package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.cellgate.core.spi.bucket.BucketStore;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Worker egress on real nodes (SPEC §19, issue 30 item 6): a Worker's {@code fetch} to its own
 * node's internal listener (the operator API), its public listener, or a peer's advertised address
 * is refused with an Error naming the destination and {@code CELLD_EGRESS_ALLOW}; an origin the
 * allow list names ({@code CELLD_EGRESS_ALLOW=127.0.0.1:<port>}) is reached.
 */
class EgressIT {
    static final String WORKER = """
            export default {
              async fetch(request) {
                const target = new URL(request.url).searchParams.get('url');
                if (!target) return new Response('no url', { status: 400 });
                try {
                  const r = await fetch(target);
                  return new Response('reached ' + r.status + ' ' + (await r.text()).slice(0, 60));
                } catch (e) {
                  return new Response('refused ' + e.name + ': ' + e.message, { status: 502 });
                }
              }
            };
            """;

    @TempDir
    static Path dir;
    static Fleet fleet;
    static NodeProcess a;
    static NodeProcess b;
    static HttpServer origin;
    static final AtomicInteger originHits = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        origin = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        origin.createContext("/", ex -> {
            originHits.incrementAndGet();
            byte[] body = "origin says hi".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        origin.start();
        fleet = Fleet.onFileBucket(dir, Map.of("CELLD_EGRESS_ALLOW", "127.0.0.1:" + origin.getAddress().getPort()));
        try (BucketStore bucket = fleet.openBucket()) {
            TestDeployments.publish(bucket, "egress", Map.of("index.js", WORKER), "index.js", Map.of(), Map.of());
        }
        a = fleet.start("eg-a");
        b = fleet.start("eg-b");
    }

    @AfterAll
    static void stop() {
        if (fleet != null) {
            fleet.close();
        }
        if (origin != null) {
            origin.stop(0);
        }
    }

    static String workerFetch(NodeProcess n, String url) throws Exception {
        return n.get(n.publicUrl("/?url=" + URLEncoder.encode(url, StandardCharsets.UTF_8))).body();
    }

    @Test
    void aWorkerCannotCallItsOwnNodesOperatorApiOrPublicListener() throws Exception {
        String own = workerFetch(a, a.internalUrl("/state"));
        assertThat(own).startsWith("refused Error: ").contains(a.internalAddr()).contains("this node's internal listener")
                .contains("CELLD_EGRESS_ALLOW");
        assertThat(workerFetch(a, a.publicUrl("/?url=x"))).startsWith("refused Error: ").contains("this node's public listener");
        String named = workerFetch(a, "http://localhost:" + a.internalAddr().substring(a.internalAddr().lastIndexOf(':') + 1) + "/state");
        assertThat(named).as("by a name that resolves to it").startsWith("refused Error: ").contains("localhost");
    }

    @Test
    void aWorkerCannotCallAPeersAdvertisedAddress() throws Exception {
        String peer = b.state().getString("advertise");
        long end = System.nanoTime() + 30_000_000_000L; // until a has seen b's lease in its fleet view
        String answer;
        do {
            answer = workerFetch(a, "http://" + peer + "/state");
        } while (!answer.contains("peer eg-b") && System.nanoTime() < end && sleep());
        assertThat(answer).startsWith("refused Error: ").contains("peer eg-b's advertised address " + peer);
    }

    @Test
    void anOriginTheAllowListNamesIsReached() throws Exception {
        int before = originHits.get();
        assertThat(workerFetch(b, "http://127.0.0.1:" + origin.getAddress().getPort() + "/hello")).isEqualTo("reached 200 origin says hi");
        assertThat(originHits.get()).isEqualTo(before + 1);
    }

    @Test
    void theMetadataServiceIsRefused() throws Exception {
        assertThat(workerFetch(a, "http://169.254.169.254/latest/meta-data/")).startsWith("refused Error: ")
                .contains("cloud metadata service");
    }

    private static boolean sleep() throws InterruptedException {
        Thread.sleep(200);
        return true;
    }
}
