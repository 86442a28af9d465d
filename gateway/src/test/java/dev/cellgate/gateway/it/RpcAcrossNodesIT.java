package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.fleet.PeerSignature;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.gateway.peer.PeerWire;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JS RPC by reference on two real nodes: a Worker served by one node gets an RpcTarget from a
 * Durable Object owned by the other. On the owner's node the stub works; from the other node its
 * calls take the peer route for exported objects ({@code /peer/v1/export/call}, signed like every
 * peer request), run on the owner's node once, and are released there when the caller's request
 * ends. The owner refuses, with a signed answer naming why, a key it no longer holds (released, or
 * its Durable Object evicted), and refuses unsigned or forged calls before anything runs.
 */
class RpcAcrossNodesIT {
    static final String WORKER = """
            import { DurableObject, RpcTarget } from "cloudflare:workers";
            class Counter extends RpcTarget {
              constructor(n) { super(); this.n = n; }
              inc() { return ++this.n; }
            }
            export class Owner extends DurableObject {
              hello() { return "hello"; }
              counter(n) { return new Counter(n); }
            }
            // Holds a counter of an Owner across requests (a Durable Object's stubs live as long as it does).
            export class Holder extends DurableObject {
              async grab(name) { this.c = await this.env.OWNER.getByName(name).counter(1); return await this.c.inc(); }
              async use() {
                try { return ["ok", await this.c.inc()]; } catch (e) { return ["error", e.name, e.message]; }
              }
            }
            export default {
              async fetch(request, env) {
                const [, op, name, arg] = new URL(request.url).pathname.split("/");
                if (op === "id") return new Response(env.OWNER.idFromName(name).toString());
                if (op === "grab") return Response.json(await env.HOLDER.getByName(name).grab(arg));
                if (op === "use") return Response.json(await env.HOLDER.getByName(name).use());
                const stub = env.OWNER.getByName(name);
                if (op === "hello") return new Response(await stub.hello());
                try {
                  const c = await stub.counter(1);
                  return Response.json(["ok", await c.inc(), await c.inc()]);
                } catch (e) {
                  return Response.json(["error", e.name, e.message]);
                }
              }
            };
            """;

    @TempDir
    static Path dir;
    static Fleet fleet;
    static NodeProcess owner;
    static NodeProcess other;

    @BeforeAll
    static void start() throws Exception {
        fleet = Fleet.onFileBucket(dir, Map.of("CELLD_TTL_MS", "6000"));
        try (BucketStore b = fleet.openBucket()) {
            TestDeployments.publish(b, "rpc", Map.of("index.js", WORKER), "index.js", Map.of("OWNER", "Owner", "HOLDER", "Holder"),
                    Map.of());
        }
        owner = fleet.start("r1");
        other = fleet.start("r2");
    }

    @AfterAll
    static void stop() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void onTheOwnersNodeAStubOfAnRpcTargetWorks() throws Exception {
        assertThat(owner.get(owner.publicUrl("/hello/o")).body()).isEqualTo("hello");
        assertThat(owner.events("cell.activated")).as("the object lives on r1").isNotEmpty();
        assertThat(owner.get(owner.publicUrl("/counter/o")).body()).isEqualTo("[\"ok\",2,3]");
    }

    @Test
    void fromTheOtherNodeTheStubCallsTheObjectOnItsOwnersNode() throws Exception {
        assertThat(owner.get(owner.publicUrl("/hello/x")).body()).isEqualTo("hello");
        assertThat(other.get(other.publicUrl("/hello/x")).body()).as("a plain RPC call is forwarded").isEqualTo("hello");
        JsonObject before = owner.state().getJsonObject("rpc_exports");
        assertThat(other.get(other.publicUrl("/counter/x")).body()).isEqualTo("[\"ok\",2,3]");
        // The request on r2 ended: r2 released its stub on r1, which then let go of the counter.
        JsonObject after = owner.state().getJsonObject("rpc_exports");
        for (int i = 0; i < 50 && !after.equals(before); i++) {
            Thread.sleep(100);
            after = owner.state().getJsonObject("rpc_exports");
        }
        assertThat(after).as("r1's exported objects and stubs once r2's request ended (before: %s)", before).isEqualTo(before);
    }

    // ---- the owner's side of the route, called as a peer would ----

    @Test
    void aReleasedKeyIsRefusedWithTheReason() throws Exception {
        String key = counterKey("released");
        HttpResponse<byte[]> first = signed(PeerWire.exportCallPath(key, "call", "[\"inc\"]"), NO_ARGS);
        assertThat(first.statusCode()).as(text(first)).isEqualTo(200);
        assertThat(first.headers().firstValue(PeerSignature.H_ANSWER_MAC)).as("the answer is signed").isPresent();
        assertThat(number(first.body())).as("inc() ran on r1: 1 + 1").isEqualTo(2.0);

        HttpResponse<byte[]> release = signed(PeerWire.exportReleasePath(key), new byte[0]);
        assertThat(release.statusCode()).as(text(release)).isEqualTo(200);
        HttpResponse<byte[]> after = signed(PeerWire.exportCallPath(key, "call", "[\"inc\"]"), NO_ARGS);
        assertThat(after.statusCode()).as(text(after)).isEqualTo(503);
        assertThat(after.headers().firstValue(PeerWire.H_RESULT)).hasValue(PeerWire.UNAVAILABLE);
        assertThat(after.headers().firstValue(PeerWire.H_RETRYABLE)).as("a retry cannot help").hasValue("0");
        assertThat(after.headers().firstValue(PeerSignature.H_ANSWER_MAC)).as("the refusal is signed").isPresent();
        assertThat(text(after)).isEqualTo("RPC stub used after being disposed.");
        assertThat(signed(PeerWire.exportReleasePath(key), new byte[0]).statusCode()).as("a release is idempotent").isEqualTo(200);
    }

    @Test
    void anUnsignedOrForgedExportCallIsRefusedAndNothingRuns() throws Exception {
        String key = counterKey("forged");
        String path = PeerWire.exportCallPath(key, "call", "[\"inc\"]");
        HttpResponse<byte[]> bare = send(path, Map.of(), NO_ARGS);
        assertThat(bare.statusCode()).as("no peer headers at all: the version is checked first; %s", text(bare)).isEqualTo(426);
        HttpResponse<byte[]> unsigned = send(path, Map.of(PeerSignature.H_VERSION, Integer.toString(PeerSignature.VERSION)), NO_ARGS);
        assertThat(unsigned.statusCode()).as(text(unsigned)).isEqualTo(401);
        Map<String, String> forged = new java.util.HashMap<>(PeerRequests.signedHeaders(fleet.openBucket(), "POST", path, NO_ARGS,
                "r2", "r1", System.currentTimeMillis()));
        forged.put(PeerSignature.H_MAC, "0".repeat(64));
        assertThat(send(path, forged, NO_ARGS).statusCode()).isEqualTo(401);
        // Signed for another key, sent for this one: the MAC covers the key, the op and the path.
        String other = PeerWire.exportCallPath(key + "0", "call", "[\"inc\"]");
        Map<String, String> moved = PeerRequests.signedHeaders(fleet.openBucket(), "POST", other, NO_ARGS, "r2", "r1",
                System.currentTimeMillis());
        assertThat(send(path, moved, NO_ARGS).statusCode()).isEqualTo(401);
        Map<String, String> otherMethod = PeerRequests.signedHeaders(fleet.openBucket(), "POST",
                PeerWire.exportCallPath(key, "call", "[\"constructor\"]"), NO_ARGS, "r2", "r1", System.currentTimeMillis());
        assertThat(send(path, otherMethod, NO_ARGS).statusCode()).isEqualTo(401);

        HttpResponse<byte[]> real = signed(path, NO_ARGS);
        assertThat(real.statusCode()).as(text(real)).isEqualTo(200);
        assertThat(number(real.body())).as("the first inc() that ran: none of the refused ones did").isEqualTo(2.0);
    }

    @Test
    void whenTheOwnersCellIsEvictedTheHeldStubFailsSayingSo() throws Exception {
        assertThat(owner.get(owner.publicUrl("/hello/ev")).body()).as("Owner ev lives on r1").isEqualTo("hello");
        assertThat(other.get(other.publicUrl("/grab/hold/ev")).body()).as("Holder hold, on r2, takes a counter of ev").isEqualTo("2");
        assertThat(other.get(other.publicUrl("/use/hold")).body()).isEqualTo("[\"ok\",3]");
        String scope = "Owner:" + owner.get(owner.publicUrl("/id/ev")).body();
        assertThat(owner.operatorPost("/evict/" + scope).statusCode()).isEqualTo(200);
        JsonArray answer = new JsonArray(other.get(other.publicUrl("/use/hold")).body());
        assertThat(answer.getString(0)).isEqualTo("error");
        assertThat(answer.getString(1)).isEqualTo("Error");
        assertThat(answer.getString(2)).isEqualTo("The Durable Object that exported this object is no longer running here"
                + " (it was evicted, moved or reset); the stub is broken.");
        assertThat(owner.get(owner.publicUrl("/counter/ev")).body()).as("the object itself works again, as a new one")
                .isEqualTo("[\"ok\",2,3]");
    }

    /** The structured-clone arguments {@code []} (version 1, an empty array). */
    static final byte[] NO_ARGS = {1, 0x0B, 0, 0, 0, 0};

    /** A Counter(1) exported by Owner {@code name} on r1, asked for as r2 would (a signed call), and its key. */
    private static String counterKey(String name) throws Exception {
        assertThat(owner.get(owner.publicUrl("/hello/" + name)).body()).isEqualTo("hello");
        String path = PeerWire.callPath("Owner:" + owner.get(owner.publicUrl("/id/" + name)).body()) + "?method=counter&name=" + name;
        byte[] one = ByteBuffer.allocate(15).order(ByteOrder.LITTLE_ENDIAN).put((byte) 1).put((byte) 0x0B).putInt(1).put((byte) 4)
                .putDouble(1.0).array();
        HttpResponse<byte[]> r = signed(path, one);
        assertThat(r.statusCode()).as(text(r)).isEqualTo(200);
        byte[] b = r.body();
        for (int i = 0; i + 5 < b.length; i++) {
            if (b[i] == 0x12) {
                int len = ByteBuffer.wrap(b, i + 1, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
                String key = new String(b, i + 5, len, StandardCharsets.UTF_8);
                assertThat(key).as("the key names r1").startsWith("r1/");
                return key;
            }
        }
        throw new AssertionError("no stub in the result: " + text(r));
    }

    /** The number in a result envelope (its one float64 after tag 0x04). */
    private static double number(byte[] b) {
        for (int i = 0; i + 8 < b.length; i++) {
            if (b[i] == 0x04) {
                return ByteBuffer.wrap(b, i + 1, 8).order(ByteOrder.LITTLE_ENDIAN).getDouble();
            }
        }
        throw new AssertionError("no number in the result");
    }

    private static HttpResponse<byte[]> signed(String path, byte[] body) throws Exception {
        return send(path, PeerRequests.signedHeaders(fleet.openBucket(), "POST", path, body, "r2", "r1", System.currentTimeMillis()), body);
    }

    private static HttpResponse<byte[]> send(String path, Map<String, String> headers, byte[] body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(owner.internalUrl(path))).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(b::header);
        return NodeProcess.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String text(HttpResponse<byte[]> r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }
}
