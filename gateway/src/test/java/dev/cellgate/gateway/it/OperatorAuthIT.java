package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.fleet.OperatorSignature;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.PeerAuthRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator API refuses strangers (SPEC §19, issue 30 item 6), on a real node: an
 * unauthenticated {@code POST /shutdown}, {@code /evict/…} or {@code /probe} answers 401 and does
 * nothing (the node keeps serving, the cell stays, the directory a probe named stays empty); a call
 * signed with the fleet key ({@link OperatorSignature}) or carrying {@code CELLD_OPERATOR_TOKEN} as a
 * bearer token works; a stale timestamp, a replayed nonce, a call signed for another node and a
 * wrong token are refused; {@code /probe} never takes a {@code file://} bucket from a request.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorAuthIT {
    static final String TOKEN = "op-token-" + Long.toHexString(System.nanoTime()) + "-0123456789abcdef";

    @TempDir
    static Path dir;
    static Fleet fleet;
    static NodeProcess node;
    static OperatorSignature signature;

    @BeforeAll
    static void start() throws Exception {
        fleet = Fleet.onFileBucket(dir.resolve("fleet"), Map.of());
        fleet.deployCounter();
        node = fleet.start("op-a", Map.of("CELLD_OPERATOR_TOKEN", TOKEN));
        try (BucketStore b = fleet.openBucket()) {
            signature = new OperatorSignature(PeerAuthRecord.decode(b.get(Keys.PEER_AUTH).get().orElseThrow().bytes()).keyHex());
        }
    }

    @AfterAll
    static void stop() {
        if (fleet != null) {
            fleet.close();
        }
    }

    static HttpResponse<String> send(HttpRequest.Builder r) throws Exception {
        return NodeProcess.HTTP.send(r.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpRequest.Builder post(String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create(node.internalUrl(pathAndQuery))).POST(HttpRequest.BodyPublishers.noBody());
    }

    static HttpRequest.Builder signed(OperatorSignature.Signed s, String pathAndQuery) {
        HttpRequest.Builder r = post(pathAndQuery);
        s.headers().forEach(r::header);
        return r;
    }

    static HttpRequest.Builder signedNow(String pathAndQuery) {
        return signed(signature.sign(node.name(), "POST", pathAndQuery, new byte[0], System.currentTimeMillis()), pathAndQuery);
    }

    /** Makes a Counter cell resident on the node and returns its scope. */
    static String residentCell(String name) throws Exception {
        String rid = "op-" + name + "-" + System.nanoTime();
        assertThat(send(HttpRequest.newBuilder(URI.create(node.publicUrl("/c/" + name))).header("X-Request-ID", rid).GET()).statusCode())
                .isEqualTo(200);
        String line = node.awaitLine(l -> l.contains("\"event\":\"cell.activated\"") && l.contains(rid), Duration.ofSeconds(60));
        return new JsonObject(line).getString("scope");
    }

    static boolean resident(String scope) throws Exception {
        return new JsonObject(node.get(node.internalUrl("/cell/" + scope)).body()).getBoolean("resident_here");
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** POST /probe on a file:// bucket in a fresh directory; asserts the directory stayed empty and returns the answer. */
    static HttpResponse<String> probeIntoEmptyDir(String name, String authorization) throws Exception {
        Path target = Files.createDirectories(dir.resolve(name));
        HttpRequest.Builder r = post("/probe?bucket=" + enc("file://" + target));
        if (authorization != null) {
            r.header("Authorization", authorization);
        }
        HttpResponse<String> answer = send(r);
        try (var files = Files.list(target)) {
            assertThat(files.toList()).as("nothing written into the directory the request named (%s)", answer.body()).isEmpty();
        }
        return answer;
    }

    @Test
    @Order(1)
    void anUnauthenticatedProbeIsRefusedAndWritesNothing() throws Exception {
        HttpResponse<String> r = probeIntoEmptyDir("any-dir", null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(401);
    }

    @Test
    @Order(2)
    void evenAnAuthenticatedProbeNeverTakesAFileBucket() throws Exception {
        HttpResponse<String> r = probeIntoEmptyDir("other-dir", "Bearer " + TOKEN);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(r.body()).contains("file://");
    }

    /** Sends an eviction of {@code scope}; asserts its status and whether the cell is still resident after it. */
    static void evict(HttpRequest.Builder call, String scope, int status, boolean stillResident) throws Exception {
        HttpResponse<String> r = send(call);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(resident(scope)).as("resident after a %d eviction", status).isEqualTo(stillResident);
    }

    @Test
    @Order(3)
    void anUnauthenticatedEvictionIsRefusedAndTheCellStays() throws Exception {
        String scope = residentCell("evict-1");
        evict(post("/evict/" + scope), scope, 401, true);
        evict(post("/evict/" + scope).header("Authorization", "Bearer " + TOKEN + "x"), scope, 401, true); // a wrong token
    }

    @Test
    @Order(4)
    void aSignedEvictionAndABearerEvictionWork() throws Exception {
        String a = residentCell("evict-2");
        evict(signedNow("/evict/" + a), a, 200, false);
        String b = residentCell("evict-3");
        evict(post("/evict/" + b).header("Authorization", "Bearer " + TOKEN), b, 200, false);
    }

    @Test
    @Order(5)
    void aStaleAReplayedAndAMisdirectedSignatureAreRefused() throws Exception {
        String scope = residentCell("evict-4");
        String path = "/evict/" + scope;
        HttpResponse<String> stale = send(signed(signature.sign(node.name(), "POST", path, new byte[0],
                System.currentTimeMillis() - 31_000), path));
        assertThat(stale.statusCode()).as(stale.body()).isEqualTo(401);
        assertThat(stale.body()).contains("timestamp");
        HttpResponse<String> elsewhere = send(signed(signature.sign("op-b", "POST", path, new byte[0], System.currentTimeMillis()), path));
        assertThat(elsewhere.statusCode()).as(elsewhere.body()).isEqualTo(401);
        HttpResponse<String> otherRoute = send(signed(signature.sign(node.name(), "POST", "/shutdown", new byte[0],
                System.currentTimeMillis()), path));
        assertThat(otherRoute.statusCode()).as("a signature for another route").isEqualTo(401);
        assertThat(resident(scope)).isTrue();
        String s5 = residentCell("evict-5");
        String path5 = "/evict/" + s5;
        OperatorSignature.Signed once = signature.sign(node.name(), "POST", path5, new byte[0], System.currentTimeMillis());
        assertThat(send(signed(once, path5)).statusCode()).isEqualTo(200);
        residentCell("evict-5"); // resident again
        HttpResponse<String> replay = send(signed(once, path5));
        assertThat(replay.statusCode()).as(replay.body()).isEqualTo(401);
        assertThat(replay.body()).contains("replayed");
        assertThat(resident(s5)).as("the replay evicted nothing").isTrue();
    }

    @Test
    @Order(6)
    void anUnauthenticatedShutdownIsRefusedAndTheNodeKeepsServing() throws Exception {
        HttpResponse<String> r = send(post("/shutdown"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(401);
        HttpResponse<String> preserve = send(post("/shutdown?handoff=preserve"));
        assertThat(preserve.statusCode()).isEqualTo(401);
        // the router matches the normalized path: a peer-route prefix in front of ../ must not skip the check
        for (String sneaky : new String[] {"/peer/v1/../shutdown", "/peer/v1/%2e%2e/shutdown", "//shutdown"}) {
            HttpResponse<String> s = send(post(sneaky));
            assertThat(s.statusCode()).as("%s: %s", sneaky, s.body()).isIn(401, 404);
        }
        Thread.sleep(1_000);
        assertThat(node.alive()).isTrue();
        assertThat(node.get(node.publicUrl("/__celld/health")).statusCode()).isEqualTo(200);
        assertThat(send(HttpRequest.newBuilder(URI.create(node.publicUrl("/c/after-shutdown-attempt"))).GET()).statusCode())
                .isEqualTo(200);
        assertThat(node.lines()).noneMatch(l -> l.contains("shutdown.requested"));
    }

    @Test
    @Order(7)
    void aSignedShutdownStopsTheNode() throws Exception {
        HttpResponse<String> r = send(signedNow("/shutdown"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        assertThat(node.waitForExit(Duration.ofSeconds(60))).isZero();
    }
}
