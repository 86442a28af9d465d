package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.gateway.metrics.PromText;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator surface of real nodes (issue 11): {@code GET /state}, {@code GET /metrics} and the
 * log lines of a request, on a fleet of two nodes (so calls are forwarded) plus a third with a
 * resident limit of 2 (so it sheds).
 */
class OperatorSurfaceIT {
    static final String WORKER = """
            import { DurableObject } from "cloudflare:workers";
            export class Room extends DurableObject {
              constructor(ctx, env) {
                super(ctx, env);
                ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)");
              }
              async fetch(request) {
                const url = new URL(request.url);
                console.log("room saw " + url.pathname);
                if (url.searchParams.get("fail")) throw new Error("room failed on purpose");
                return new Response(String(this.ctx.storage.sql.exec(
                  "INSERT INTO t VALUES ('n', 1) ON CONFLICT(k) DO UPDATE SET v = v + 1 RETURNING v").one().v));
              }
            }
            export default {
              async fetch(request, env) {
                const url = new URL(request.url);
                console.log("worker saw " + url.pathname);
                const m = /^\\/room\\/([^/]+)$/.exec(url.pathname);
                if (!m) return new Response("no", { status: 404 });
                return env.ROOM.getByName(m[1]).fetch(request);
              }
            };
            """;

    @TempDir
    static Path dir;
    static Fleet fleet;
    static String deployment;
    static NodeProcess a;
    static NodeProcess b;
    static NodeProcess small;

    @BeforeAll
    static void start() throws Exception {
        fleet = Fleet.onFileBucket(dir, Map.of());
        try (BucketStore bucket = fleet.openBucket()) {
            deployment = TestDeployments.publish(bucket, "ops", Map.of("index.js", WORKER), "index.js", Map.of("ROOM", "Room"), Map.of());
        }
        Map<String, Map<String, String>> nodes = new LinkedHashMap<>();
        nodes.put("ops-a", Map.of());
        nodes.put("ops-b", Map.of());
        nodes.put("ops-small", Map.of("CELLD_MAX_RESIDENT_CELLS", "2"));
        Map<String, NodeProcess> started = ParallelStart.start(dir, fleet.bucketUrl, nodes);
        fleet.nodes.addAll(started.values());
        a = started.get("ops-a");
        b = started.get("ops-b");
        small = started.get("ops-small");
    }

    @AfterAll
    static void stop() {
        if (fleet != null) {
            fleet.close();
        }
    }

    static HttpResponse<String> get(String url, String requestId) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(120)).GET();
        if (requestId != null) {
            r.header("X-Request-ID", requestId);
        }
        return NodeProcess.HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    static PromText metrics(NodeProcess n) throws Exception {
        HttpResponse<String> r = n.get(n.internalUrl("/metrics"));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        return new PromText(r.body());
    }

    /** The scope of the cell a request activated, from the owner's {@code cell.activated} line. */
    static String activatedScope(NodeProcess n, String requestId) throws Exception {
        String line = n.awaitLine(l -> l.contains("\"event\":\"cell.activated\"") && l.contains("\"request_id\":\"" + requestId + "\""),
                Duration.ofSeconds(60));
        return new JsonObject(line).getString("scope");
    }

    static List<JsonObject> linesOf(NodeProcess n, String requestId) {
        return n.lines().stream().filter(l -> l.contains(requestId)).map(JsonObject::new).toList();
    }

    @Test
    void stateShowsEveryCounterTheDeploymentTheEngineModeAndTheLeaseExpiry() throws Exception {
        assertThat(get(a.publicUrl("/room/state-1"), "ops-state-1").statusCode()).isEqualTo(200);
        long now = System.currentTimeMillis();
        JsonObject s = a.state();
        for (String k : List.of("occupied", "activating", "restoring", "evicting", "releasing", "resident", "shedding")) {
            assertThat(s.getValue(k)).as(k).isInstanceOf(Integer.class);
            assertThat(s.getInteger(k)).as(k).isNotNegative();
        }
        assertThat(s.getInteger("resident")).as("the cell the request activated").isGreaterThanOrEqualTo(1);
        assertThat(s.getInteger("occupied")).isGreaterThanOrEqualTo(s.getInteger("resident"));
        assertThat(s.getInteger("shedding")).as("no resident limit on this node").isZero();
        assertThat(s.getBoolean("draining")).isFalse();
        assertThat(s.getString("deployment")).isEqualTo(deployment);
        assertThat(s.getJsonObject("engine").getString("mode")).isEqualTo("jit");
        assertThat(s.getLong("lease_expires_ms")).as("a live lease, at most one TTL ahead")
                .isGreaterThan(now - 2_000).isLessThan(now + 10_000 + 2_000);
        assertThat(s.getString("node")).isEqualTo("ops-a");
    }

    @Test
    void metricsCountRequestsByKindBucketOperationsCellsReplicationAndTheJvm() throws Exception {
        assertThat(get(b.publicUrl("/room/metrics-1"), "ops-metrics-own").statusCode()).isEqualTo(200);
        activatedScope(b, "ops-metrics-own");
        HttpResponse<String> forwarded = get(a.publicUrl("/room/metrics-1"), "ops-metrics-fwd");
        assertThat(forwarded.statusCode()).isEqualTo(200);
        assertThat(forwarded.body()).as("the second write to the cell on ops-b").isEqualTo("2");

        PromText pa = metrics(a);
        String req = "cellgate_requests_seconds_count";
        assertThat(pa.value(req, "kind", "worker", "outcome", "ok", "node", "ops-a")).isGreaterThanOrEqualTo(1);
        assertThat(pa.value(req, "kind", "cell_forwarded", "outcome", "ok")).isGreaterThanOrEqualTo(1);

        PromText pb = metrics(b);
        assertThat(pb.value(req, "kind", "worker", "outcome", "ok", "node", "ops-b")).isGreaterThanOrEqualTo(1);
        assertThat(pb.value(req, "kind", "cell_local", "outcome", "ok")).isGreaterThanOrEqualTo(1);
        assertThat(pb.value(req, "kind", "peer", "outcome", "ok")).as("the call ops-a forwarded").isGreaterThanOrEqualTo(1);
        assertThat(pb.find("cellgate_requests_seconds_bucket", "kind", "peer", "outcome", "ok")).hasSize(15);
        assertThat(pb.value("cellgate_cell_activations_seconds_count", "outcome", "activated")).isGreaterThanOrEqualTo(1);
        assertThat(pb.value("cellgate_cell_restores_seconds_count", "outcome", "ok")).isGreaterThanOrEqualTo(1);
        String bucket = "cellgate_bucket_requests_seconds_count";
        assertThat(pb.value(bucket, "op", "putIfAbsent", "outcome", "written")).as("own.json at epoch 1").isGreaterThanOrEqualTo(1);
        assertThat(pb.value(bucket, "op", "putIfVersion", "outcome", "written")).as("lease renewals").isGreaterThanOrEqualTo(1);
        assertThat(pb.value(bucket, "op", "putIfVersion", "outcome", "rejected"))
                .as("CAS rejections: the startup storage probe races compare-and-swaps").isGreaterThanOrEqualTo(1);
        assertThat(pb.value(bucket, "op", "get", "outcome", "found")).isGreaterThanOrEqualTo(1);
        assertThat(pb.value(bucket, "op", "putIfVersion", "outcome", "ambiguous")).as("a local disk is never ambiguous").isZero();
        assertThat(pb.value("cellgate_bucket_bytes_total", "direction", "written")).isPositive();
        assertThat(pb.value("cellgate_replication_uploaded_bytes_total")).isPositive();
        assertThat(pb.value("cellgate_replication_segments_total")).isPositive();
        assertThat(pb.value("cellgate_replication_commit_seconds_count", "outcome", "ok")).isGreaterThanOrEqualTo(2);
        assertThat(pb.find("cellgate_replication_pending_bytes")).hasSize(1);
        assertThat(pb.value("cellgate_output_gate_wait_seconds_count")).isGreaterThanOrEqualTo(2);
        assertThat(pb.value("cellgate_cells_resident")).isGreaterThanOrEqualTo(1);
        assertThat(pb.value("cellgate_engine_info", "mode", "jit")).isEqualTo(1);
        assertThat(pb.value("cellgate_deployment_info", "deployment", deployment)).isEqualTo(1);
        assertThat(pb.value("cellgate_lease_remaining_seconds")).isPositive();
        assertThat(pb.find("jvm_memory_used_bytes", "area", "heap")).isNotEmpty();
        assertThat(pb.find("jvm_threads_live_threads")).hasSize(1);
    }

    @Test
    void aNodeAtItsResidentLimitShedsAndCountsIt() throws Exception {
        for (int i = 1; i <= 4; i++) {
            assertThat(get(small.publicUrl("/room/shed-" + i), "ops-shed-" + i).statusCode()).isEqualTo(200);
        }
        long deadline = System.currentTimeMillis() + 60_000;
        PromText p = metrics(small);
        while (p.value("cellgate_cell_releases_seconds_count", "outcome", "released") < 1 && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
            p = metrics(small);
        }
        assertThat(p.value("cellgate_cell_evictions_total", "reason", "shed")).isGreaterThanOrEqualTo(1);
        assertThat(p.value("cellgate_cell_releases_seconds_count", "outcome", "released")).isGreaterThanOrEqualTo(1);
        assertThat(small.events("cell.released")).as("the shed cells were released").isNotEmpty();
        JsonObject s = small.state();
        assertThat(s.getInteger("resident")).as("down to the limit").isLessThanOrEqualTo(3);
        assertThat(s.containsKey("shedding")).isTrue();
    }

    @Test
    void aRequestsLogLinesCarryNodeScopeAndRequestIdAlsoWhereItWasForwarded() throws Exception {
        assertThat(get(b.publicUrl("/room/logs-1"), "ops-log-own").statusCode()).isEqualTo(200);
        String scope = activatedScope(b, "ops-log-own");
        HttpResponse<String> fwd = get(a.publicUrl("/room/logs-1"), "ops-log-fwd");
        assertThat(fwd.statusCode()).isEqualTo(200);
        assertThat(fwd.headers().firstValue("x-request-id")).as("echoed").hasValue("ops-log-fwd");

        // On the owner: the activation and the Durable Object's console line name the cell and the request.
        b.awaitLine(l -> l.contains("room saw /room/logs-1") && l.contains("ops-log-fwd"), Duration.ofSeconds(30));
        List<JsonObject> ownAll = linesOf(b, "ops-log-own");
        assertThat(ownAll).filteredOn(j -> "worker saw /room/logs-1".equals(j.getString("message")))
                .as("the Worker ran on ops-b: its line names the request, and no cell").singleElement()
                .satisfies(j -> assertThat(j.getString("scope")).isNull());
        List<JsonObject> own = ownAll.stream().filter(j -> "cell.activated".equals(j.getString("event"))
                || "room saw /room/logs-1".equals(j.getString("message"))).toList();
        assertThat(own).extracting(j -> j.getString("event")).contains("cell.activated", "js.console");
        List<JsonObject> onOwner = linesOf(b, "ops-log-fwd");
        assertThat(onOwner).extracting(j -> j.getString("message")).contains("room saw /room/logs-1");
        for (JsonObject j : concat(own, onOwner)) {
            assertThat(j.getString("node")).as("%s", j).isEqualTo("ops-b");
            assertThat(j.getString("scope")).as("%s", j).isEqualTo(scope);
        }
        // On the node the client called: the Worker's line names the request and the node.
        List<JsonObject> onEntry = linesOf(a, "ops-log-fwd");
        assertThat(onEntry).extracting(j -> j.getString("message")).contains("worker saw /room/logs-1");
        for (JsonObject j : onEntry) {
            assertThat(j.getString("node")).isEqualTo("ops-a");
            assertThat(j.getString("request_id")).isEqualTo("ops-log-fwd");
        }

        // A failure: the error line carries the request id the client sees.
        HttpResponse<String> failed = get(a.publicUrl("/room/logs-2?fail=1"), "ops-log-fail");
        assertThat(failed.statusCode()).isEqualTo(500);
        assertThat(failed.headers().firstValue("x-request-id")).hasValue("ops-log-fail");
        a.awaitLine(l -> l.contains("worker.exception") && l.contains("ops-log-fail"), Duration.ofSeconds(30));
        String failScope = activatedScope(a, "ops-log-fail");
        List<JsonObject> fail = linesOf(a, "ops-log-fail");
        assertThat(fail).extracting(j -> j.getString("event")).contains("cell.activated", "js.console", "worker.exception");
        fail.forEach(j -> assertThat(j.getString("node")).isEqualTo("ops-a"));
        assertThat(fail).filteredOn(j -> "room saw /room/logs-2".equals(j.getString("message")))
                .singleElement().satisfies(j -> assertThat(j.getString("scope")).isEqualTo(failScope));

        // No client id, or one that is not a plain token: the node makes one up.
        String made = get(a.publicUrl("/room/logs-3"), null).headers().firstValue("x-request-id").orElseThrow();
        assertThat(made).matches("[0-9a-f]{16}");
        String replaced = get(a.publicUrl("/room/logs-3"), "bad id{}").headers().firstValue("x-request-id").orElseThrow();
        assertThat(replaced).matches("[0-9a-f]{16}");

        // One JSON object per line, every line, on every node.
        for (NodeProcess n : List.of(a, b)) {
            for (String line : n.lines()) {
                assertThat(line).startsWith("{").endsWith("}");
                assertThat(new JsonObject(line).getString("event")).as(line).isNotBlank();
            }
        }
    }

    private static List<JsonObject> concat(List<JsonObject> x, List<JsonObject> y) {
        return java.util.stream.Stream.concat(x.stream(), y.stream()).toList();
    }
}
