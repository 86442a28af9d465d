package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.json.JsonArray;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JS RPC by reference on two real nodes: a Worker served by one node gets an RpcTarget from a
 * Durable Object owned by the other. On the owner's node the stub works; on the other node the
 * call needs the peer route for exported objects ({@code StubChannel.callExport}), which the node
 * does not have yet (it comes with peer protocol v2): until then the call fails at once with an
 * error naming the owner's node, never hangs and never runs twice. When the route lands, the second
 * test expects the counter's answers instead.
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
            export default {
              async fetch(request, env) {
                const [, op, name] = new URL(request.url).pathname.split("/");
                const stub = env.OWNER.getByName(name);
                if (op === "hello") return new Response(await stub.hello());
                const t0 = Date.now();
                try {
                  const c = await stub.counter(1);
                  return Response.json(["ok", await c.inc(), await c.inc()]);
                } catch (e) {
                  return Response.json(["error", e.name, e.message, Date.now() - t0]);
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
            TestDeployments.publish(b, "rpc", Map.of("index.js", WORKER), "index.js", Map.of("OWNER", "Owner"), Map.of());
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
    void fromTheOtherNodeTheCallFailsAtOnceNamingTheOwnersNode() throws Exception {
        assertThat(owner.get(owner.publicUrl("/hello/x")).body()).isEqualTo("hello");
        assertThat(other.get(other.publicUrl("/hello/x")).body()).as("a plain RPC call is forwarded").isEqualTo("hello");
        JsonArray answer = new JsonArray(other.get(other.publicUrl("/counter/x")).body());
        assertThat(answer.getString(0)).isEqualTo("error");
        assertThat(answer.getString(1)).isEqualTo("Error");
        assertThat(answer.getString(2)).startsWith("the object behind this RPC stub lives on node ")
                .endsWith(", and this host has no route for calls on objects exported by another node");
        assertThat(answer.getLong(3)).as("ms until the call failed").isLessThan(10_000);
    }
}
