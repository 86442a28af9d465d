package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.bindings.D1Cells;
import dev.cellgate.core.deploy.bindings.D1DatabaseBinding;
import dev.cellgate.core.spi.bucket.BucketStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A D1 database on a fleet of real node processes: it is a cell, so every node serves it (the
 * owner runs the SQL, the others forward), and what was acknowledged survives the owner's
 * SIGKILL (the survivor takes the cell over and restores it from the bucket) and a restart of
 * the whole fleet.
 */
class D1FleetIT {
    static final long TTL_MS = 6000;
    static final String DATABASE_ID = "6f1d2c3b-0000-4000-8000-00000000d1d1";
    static final String WORKER = """
            export default {
              async fetch(request, env) {
                const url = new URL(request.url);
                await env.DB.exec('CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
                if (url.pathname === '/add') {
                  const r = await env.DB.prepare('INSERT INTO notes (body) VALUES (?)').bind(url.searchParams.get('body')).run();
                  return Response.json(r.meta.last_row_id);
                }
                const { results } = await env.DB.prepare('SELECT body FROM notes ORDER BY id').all();
                return Response.json(results.map((r) => r.body));
              },
            };
            """;

    @TempDir
    Path dir;

    @Test
    void onAFileBucket() throws Exception {
        try (Fleet f = Fleet.onFileBucket(dir, Map.of("CELLD_TTL_MS", String.valueOf(TTL_MS)))) {
            servedByEveryNodeAndSurvivesItsOwnersSigkillAndAFleetRestart(f);
        }
    }

    /** The same on the S3-compatible server (.ci/s3-server.sh; S3Env says what is missing). */
    @Test
    void onS3() throws Exception {
        try (Fleet f = Fleet.onBucket(dir, S3Env.require().freshUrl("d1-fleet"), Map.of("CELLD_TTL_MS", String.valueOf(TTL_MS)))) {
            servedByEveryNodeAndSurvivesItsOwnersSigkillAndAFleetRestart(f);
        }
    }

    private void servedByEveryNodeAndSurvivesItsOwnersSigkillAndAFleetRestart(Fleet f) throws Exception {
        try (BucketStore b = f.openBucket()) {
            TestDeployments.publish(b, "notes", Map.of("index.js", WORKER), "index.js", Map.of(),
                    List.of(new D1DatabaseBinding("DB", "notes", DATABASE_ID)));
            NodeProcess n1 = f.start("n1");
            NodeProcess n2 = f.start("n2");
            List<String> acked = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                NodeProcess via = i % 2 == 0 ? n1 : n2;
                String body = "note-" + i;
                HttpResponse<String> r = via.get(via.publicUrl("/add?body=" + URLEncoder.encode(body, StandardCharsets.UTF_8)));
                assertThat(r.statusCode()).as("add through " + via.name() + ": " + r.body() + "\n" + errors(via)).isEqualTo(200);
                acked.add(body);
            }
            assertThat(list(n1)).isEqualTo(acked);
            assertThat(list(n2)).as("the other node forwards to the owner").isEqualTo(acked);

            String owner = ownerOf(b);
            assertThat(owner).as("the database's cell is owned by a node").isIn("n1", "n2");
            NodeProcess killed = owner.equals("n1") ? n1 : n2;
            NodeProcess survivor = killed == n1 ? n2 : n1;
            killed.sigkill();
            long killedAt = System.nanoTime();
            List<String> seen = null;
            while (seen == null && System.nanoTime() - killedAt < Duration.ofMillis(TTL_MS * 4).toNanos()) {
                HttpResponse<String> r = survivor.get(survivor.publicUrl("/list"));
                if (r.statusCode() == 200) {
                    seen = strings(r.body());
                } else {
                    Thread.sleep(200);
                }
            }
            System.out.printf("D1 takeover after SIGKILL of %s: %,d ms%n", killed.name(), Duration.ofNanos(System.nanoTime() - killedAt).toMillis());
            assertThat(seen).as("every acknowledged insert, read on the survivor after the owner's SIGKILL").isEqualTo(acked);
            assertThat(ownerOf(b)).isEqualTo(survivor.name());
            HttpResponse<String> more = survivor.get(survivor.publicUrl("/add?body=after-kill"));
            assertThat(more.statusCode()).as(more.body()).isEqualTo(200);
            acked.add("after-kill");

            survivor.sigterm();
            assertThat(survivor.waitForExit(Duration.ofSeconds(60))).isZero();
            NodeProcess n3 = f.start("n3");
            assertThat(list(n3)).as("after the whole fleet went away and a new node started").isEqualTo(acked);
        }
    }

    /** The node's log lines about failures, for an assertion's message. */
    private static String errors(NodeProcess n) {
        return String.join("\n", n.lines().stream().filter(l -> l.contains("rror") || l.contains("xception")).toList());
    }

    private static List<String> list(NodeProcess n) throws Exception {
        HttpResponse<String> r = n.get(n.publicUrl("/list"));
        assertThat(r.statusCode()).as("list through " + n.name() + ": " + r.body() + "\n" + errors(n)).isEqualTo(200);
        return strings(r.body());
    }

    private static List<String> strings(String json) {
        List<String> out = new ArrayList<>();
        new JsonArray(json).forEach(v -> out.add((String) v));
        return out;
    }

    private static String ownerOf(BucketStore b) {
        var own = b.get("cells/" + D1Cells.scopeOf(DATABASE_ID, "notes") + "/own.json").join();
        return own.map(o -> new JsonObject(new String(o.bytes(), StandardCharsets.UTF_8)).getString("node")).orElse(null);
    }
}
