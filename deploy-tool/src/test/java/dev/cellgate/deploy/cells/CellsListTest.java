package dev.cellgate.deploy.cells;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.records.OwnershipRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.deploy.RealNode;
import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cells list} on a bucket a real node ({@code gateway.jar}) wrote: two Durable Objects
 * written through the node, listed with their owner, epoch, size and last write while the node
 * holds them, then as released (epoch kept) after the node stopped cleanly; a malformed
 * {@code own.json} is listed as unreadable, not hidden.
 */
class CellsListTest {
    @TempDir
    Path tmp;

    private static final String WORKER = """
            import { DurableObject } from "cloudflare:workers";
            export class Box extends DurableObject {
              async fetch(request) {
                const n = new URL(request.url).searchParams.get("n") ?? "1";
                this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS t (v TEXT)");
                for (let i = 0; i < Number(n); i++) this.ctx.storage.sql.exec("INSERT INTO t VALUES (?)", "x".repeat(1000));
                return new Response("ok");
              }
            }
            export default { fetch(request, env) { return env.BOX.getByName(new URL(request.url).pathname.slice(1)).fetch(request); } };
            """;

    @Test
    void listsEachCellOfARealNodesBucketWithOwnerEpochSizeAndLastWrite() throws Exception {
        String bucket = "file://" + tmp.resolve("bucket");
        Path bundle = tmp.resolve("box.js");
        Files.writeString(bundle, WORKER);
        Files.writeString(tmp.resolve("wrangler.json"), """
                {"name": "boxes", "compatibility_date": "2025-04-01",
                 "durable_objects": {"bindings": [{"name": "BOX", "class_name": "Box"}]},
                 "migrations": [{"tag": "v1", "new_sqlite_classes": ["Box"]}]}
                """);
        assertThat(ToolRun.run("push", bundle.toString(), "--bucket", bucket).code()).isZero();

        ToolRun empty = ToolRun.run("cells", "list", "--bucket", bucket, "--json");
        assertThat(empty.code()).as(empty.toString()).isZero();
        assertThat(empty.json().getJsonArray("cells")).isEmpty();

        long before = System.currentTimeMillis();
        RealNode node = RealNode.start(tmp, bucket, "cells-n1");
        try {
            int port = port(node.listening.getString("public"));
            node.awaitEvent("deployment.loaded");
            assertThat(get(port, "/small?n=1")).isEqualTo("ok");
            assertThat(get(port, "/big?n=50")).isEqualTo("ok");
            long after = System.currentTimeMillis();

            ToolRun r = ToolRun.run("cells", "list", "--bucket", bucket, "--json");
            assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.OK);
            JsonArray cells = r.json().getJsonArray("cells");
            assertThat(cells).hasSize(2);
            Map<String, OwnershipRecord> owners = owners(bucket, cells);
            for (int i = 0; i < 2; i++) {
                JsonObject c = cells.getJsonObject(i);
                assertThat(c.getString("scope")).startsWith("Box:").hasSize("Box:".length() + 64);
                assertThat(c.getString("owner")).isEqualTo("cells-n1");
                assertThat(c.getLong("epoch")).isEqualTo(owners.get(c.getString("scope")).epoch()).isPositive();
                assertThat(c.getLong("size")).isPositive();
                assertThat(c.getLong("last_write_ms")).isBetween(before - 2000, after + 2000);
                assertThat(c.getInteger("objects")).isGreaterThan(1);
            }
            // the big one holds 50 rows of 1000 bytes, the small one 1
            long small = cells.stream().map(JsonObject.class::cast).mapToLong(c -> c.getLong("size")).min().orElseThrow();
            long big = cells.stream().map(JsonObject.class::cast).mapToLong(c -> c.getLong("size")).max().orElseThrow();
            assertThat(big - small).isGreaterThanOrEqualTo(49_000);

            ToolRun table = ToolRun.run("cells", "list", "--bucket", bucket);
            assertThat(table.code()).isZero();
            assertThat(table.out()).contains("SCOPE").contains("OWNER").contains("EPOCH").contains("SIZE").contains("LAST WRITE (UTC)")
                    .contains(cells.getJsonObject(0).getString("scope")).contains("cells-n1");
        } finally {
            node.process.destroy(); // SIGTERM: the node drains and releases its cells
            assertThat(node.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            node.close();
        }

        ToolRun released = ToolRun.run("cells", "list", "--bucket", bucket, "--json");
        assertThat(released.code()).isZero();
        for (Object o : released.json().getJsonArray("cells")) {
            JsonObject c = (JsonObject) o;
            assertThat(c.getString("owner")).as(c.encode()).isEmpty();
            assertThat(c.getBoolean("released")).isTrue();
            assertThat(c.getLong("epoch")).isPositive();
        }
        assertThat(ToolRun.run("cells", "list", "--bucket", bucket).out()).contains("(released)");

        // a malformed ownership record is shown as such, and the rest of the list still comes
        try (BucketStore store = new BucketStores(null).open(bucket, new StoreOptions(Map.of()))) {
            store.put(Keys.ownership("Box:" + "0".repeat(64)), "{not json".getBytes(StandardCharsets.UTF_8)).join();
        }
        ToolRun bad = ToolRun.run("cells", "list", "--bucket", bucket, "--json");
        assertThat(bad.code()).isZero();
        assertThat(bad.json().getJsonArray("cells")).hasSize(3);
        JsonObject unreadable = bad.json().getJsonArray("cells").getJsonObject(0);
        assertThat(unreadable.getString("scope")).isEqualTo("Box:" + "0".repeat(64));
        assertThat(unreadable.getString("error")).contains("ownership record");
        assertThat(ToolRun.run("cells", "list", "--bucket", bucket).out()).contains("UNREADABLE");
    }

    @Test
    void refusesWhatItDoesNotKnow() {
        ToolRun r = ToolRun.run("cells", "lst", "--bucket", "file://" + tmp.resolve("b"));
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("cells lst").contains("list");
        assertThat(ToolRun.run("cells", "--bucket", "file://" + tmp.resolve("b")).code()).isEqualTo(ExitCodes.USAGE);
    }

    private static Map<String, OwnershipRecord> owners(String bucket, JsonArray cells) {
        Map<String, OwnershipRecord> m = new java.util.HashMap<>();
        try (BucketStore store = new BucketStores(null).open(bucket, new StoreOptions(Map.of()))) {
            for (Object o : cells) {
                String scope = ((JsonObject) o).getString("scope");
                m.put(scope, OwnershipRecord.decode(store.get(Keys.ownership(scope)).join().orElseThrow().bytes()));
            }
        }
        return m;
    }

    private static int port(String hostPort) {
        return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
    }

    private static String get(int port, String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }
}
