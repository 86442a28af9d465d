package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Point-in-time recovery through {@code ctx.storage} on real {@code java -jar} nodes (SPEC §22):
 * a bookmark taken on one node is restored by the next activation on another (after a handoff
 * stop); the undo bookmark brings the state before the request back; a node SIGKILLed while
 * carrying out a restore leaves the cell to the next node, which restores it correctly. On the
 * file bucket, bucket operations are slowed by a test store plugin so that the kill lands mid-restore.
 */
class PointInTimeIT {
    static final String WORKER = """
            import { DurableObject } from "cloudflare:workers";
            export class Notes extends DurableObject {
              constructor(ctx, env) {
                super(ctx, env);
                ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS n (id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
              }
              async fetch(request) {
                const u = new URL(request.url);
                const s = this.ctx.storage;
                switch (u.pathname) {
                  case "/put":
                    s.sql.exec("INSERT INTO n (id, v) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET v = excluded.v", u.searchParams.get("v"));
                    return new Response(await s.getCurrentBookmark());
                  case "/get": {
                    const r = s.sql.exec("SELECT v FROM n WHERE id = 1").toArray();
                    return new Response(r.length ? r[0].v : "(none)");
                  }
                  case "/at":
                    return new Response(await s.getBookmarkForTime(Number(u.searchParams.get("t"))));
                  case "/restore":
                    return new Response(await s.onNextSessionRestoreBookmark(u.searchParams.get("b")));
                  case "/bad":
                    try { await s.onNextSessionRestoreBookmark("nonsense"); return new Response("accepted"); }
                    catch (e) { return new Response(e.name + ": " + e.message); }
                  case "/id":
                    return new Response(this.ctx.id.toString());
                  case "/restore-now":
                    await s.onNextSessionRestoreBookmark(u.searchParams.get("b"));
                    this.ctx.abort("restore now");
                    return new Response("unreachable: ctx.abort() returned");
                }
                return new Response("no", { status: 404 });
              }
            }
            export default {
              async fetch(request, env) {
                const stub = env.NOTES.getByName("n");
                if (new URL(request.url).pathname !== "/restore-now") return stub.fetch(request);
                try { return await stub.fetch(request); } catch (e) { return new Response("aborted: " + e.message); }
              }
            };
            """;

    @TempDir
    Path dir;

    static String body(NodeProcess n, String path) throws Exception {
        HttpResponse<String> r = Fleet.getServed(n, path, Duration.ofSeconds(60));
        if (r.statusCode() != 200) {
            java.util.List<String> all = n.lines();
            throw new AssertionError(path + " on " + n.name() + ": " + r.statusCode() + " " + r.body() + "; log tail:\n"
                    + String.join("\n", all.subList(Math.max(0, all.size() - 15), all.size())));
        }
        return r.body();
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** File bucket, every bucket operation slowed to 250 ms (a test store plugin) so that the kill lands mid-restore. */
    @Test
    void onAFileBucketRestoreAcrossAHandoffUndoAndAKillMidRestore() throws Exception {
        Path plugins = dir.resolve("plugins");
        Files.createDirectories(plugins);
        try (var s = Files.list(NodeProcess.GATEWAY_JAR.getParent().resolve("plugins"))) {
            for (Path p : s.toList()) {
                Files.copy(p, plugins.resolve(p.getFileName()));
            }
        }
        Path jar = dev.cellgate.core.plugin.TestPluginBuilder.buildSlowStorePlugin(dir.resolve("plugin-build"), "slowfile",
                System.getProperty("java.class.path"), 250);
        Files.copy(jar, plugins.resolve("slowfile.jar"));
        Path bucket = dir.resolve("bucket");
        Files.createDirectories(bucket);
        try (Fleet f = new Fleet(dir, "file://" + bucket, Map.of("CELLD_TTL_MS", "3000", "CELLD_PLUGINS_DIR", plugins.toString(),
                "CELLD_BUCKET", "slowfile:/" + bucket, "CELLD_STORAGE_PROBE", "0"))) {
            scenario(f, true);
        }
    }

    /** The same on the loopback S3 server (.ci/s3-server.sh): the lineage and the listing are the store's. */
    @Test
    void onS3RestoreAcrossAHandoffUndoAndAKillMidRestore() throws Exception {
        S3Env s3 = S3Env.require();
        try (Fleet f = Fleet.onBucket(dir, s3.freshUrl("pitr"), Map.of("CELLD_TTL_MS", "10000"))) {
            scenario(f, false); // unslowed: the kill may land before or after the restore ends, both must come out right
        }
    }

    /** Cloudflare's own recipe: record the restore, then {@code ctx.abort()}: the very next call is a new session on the restored state. */
    @Test
    void ctxAbortEndsTheSessionSoTheNextCallFindsTheRestoredState() throws Exception {
        Path bucket = dir.resolve("abort-bucket");
        Files.createDirectories(bucket);
        try (Fleet f = new Fleet(dir, "file://" + bucket, Map.of("CELLD_TTL_MS", "3000"))) {
            try (BucketStore b = f.openBucket()) {
                TestDeployments.publish(b, "pitr", Map.of("index.js", WORKER), "index.js", Map.of("NOTES", "Notes"), Map.of());
            }
            NodeProcess a = f.start("abort-a");
            String one = body(a, "/put?v=one");
            body(a, "/put?v=two");
            assertThat(body(a, "/restore-now?b=" + enc(one))).isEqualTo("aborted: restore now");
            assertThat(body(a, "/get")).as("the call after ctx.abort() is a new session: the restore took effect").isEqualTo("one");
            assertThat(a.lines()).anyMatch(l -> l.contains("\"cell.aborted\""));
        }
    }

    /** The same on Google Cloud Storage (the in-repo emulator, the store-gcs plugin dropped into the nodes' plugins). */
    @Test
    void onGcsRestoreAcrossAHandoffUndoAndAKillMidRestore() throws Exception {
        Path plugins = dir.resolve("gcs-plugins");
        Files.createDirectories(plugins);
        try (var s = Files.list(NodeProcess.GATEWAY_JAR.getParent().resolve("plugins"))) {
            for (Path p : s.toList()) {
                Files.copy(p, plugins.resolve(p.getFileName()));
            }
        }
        Files.copy(Path.of("target/optional-plugins/store-gcs.jar"), plugins.resolve("store-gcs.jar"));
        try (dev.cellgate.store.gcs.emulator.GcsEmulator gcs = dev.cellgate.store.gcs.emulator.GcsEmulator.start(0).createBucket("pitr-gcs")) {
            String url = "gs://pitr-gcs/fleet";
            Map<String, String> gcsOptions = Map.of("CELLD_GCS_ENDPOINT", gcs.endpoint());
            try (Fleet f = Fleet.onBucket(dir, url, Map.of("CELLD_TTL_MS", "10000", "CELLD_PLUGINS_DIR", plugins.toString(),
                    "CELLD_GCS_ENDPOINT", gcs.endpoint()))) {
                scenario(f, () -> Fleet.openBucket(url, plugins, gcsOptions), false);
            }
        }
    }

    private void scenario(Fleet f, boolean killMidRestore) throws Exception {
        scenario(f, f::openBucket, killMidRestore);
    }

    private void scenario(Fleet f, java.util.function.Supplier<BucketStore> bucket, boolean killMidRestore) throws Exception {
        try (BucketStore b = bucket.get()) {
            TestDeployments.publish(b, "pitr", Map.of("index.js", WORKER), "index.js", Map.of("NOTES", "Notes"), Map.of());
        }
        NodeProcess a = f.start("pitr-a");
        body(a, "/put?v=one");
        String two = body(a, "/put?v=two");
        long afterTwo = System.currentTimeMillis();
        Thread.sleep(50);
        body(a, "/put?v=three");
        assertThat(body(a, "/bad")).startsWith("TypeError: invalid bookmark 'nonsense'");
        // bookmarks are ordered strings; the one for a time names the state then
        String atTwo = body(a, "/at?t=" + afterTwo);
        assertThat(atTwo.substring(17)).isEqualTo(two.substring(17));
        assertThat(atTwo.compareTo(two)).isPositive();
        String undo = body(a, "/restore?b=" + enc(two));
        assertThat(undo.compareTo(two)).isPositive();
        assertThat(body(a, "/get")).as("the restore waits for the next session").isEqualTo("three");

        // a handoff: a stops, b activates the cell, and that activation carries the restore out
        NodeProcess bNode = f.start("pitr-b");
        a.sigterm();
        assertThat(a.waitForExit(Duration.ofSeconds(60))).isZero();
        assertThat(body(bNode, "/get")).isEqualTo("two");
        body(bNode, "/put?v=four");

        // undo, carried out by a node killed mid-restore, then by the next one
        assertThat(body(bNode, "/restore?b=" + enc(undo)).compareTo(undo)).isPositive();
        String scope = "Notes:" + body(bNode, "/id");
        assertThat(bNode.operatorPost("/evict/" + scope).statusCode()).isEqualTo(200);
        // b carried out the first restore already: wait for the log line of the second one
        long before = bNode.lines().stream().filter(l -> l.contains("cell.restore_to_bookmark")).count();
        Thread killer = Thread.ofPlatform().start(() -> {
            try {
                long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (bNode.lines().stream().filter(l -> l.contains("cell.restore_to_bookmark")).count() == before
                        && System.nanoTime() < end) {
                    Thread.sleep(10);
                }
                Thread.sleep(150);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            bNode.sigkill();
        });
        try {
            bNode.get(bNode.publicUrl("/get"));
        } catch (java.io.IOException expected) {
            // killed while it restored
        }
        killer.join();
        // Mid-restore means: before the epoch that carried the restore out had its pin (its new lineage) in the bucket.
        io.vertx.core.json.JsonObject asked = null;
        for (String l : bNode.lines()) {
            if (l.contains("\"cell.restore_to_bookmark\"")) {
                asked = new io.vertx.core.json.JsonObject(l);
            }
        }
        assertThat(asked).as("b logged the second restore").isNotNull();
        boolean pinned;
        try (BucketStore b = bucket.get()) {
            String pin = "cells/" + scope + "/wal/e" + String.format("%016x", asked.getLong("epoch")) + "/base.json";
            pinned = b.get(pin).get(30, java.util.concurrent.TimeUnit.SECONDS).isPresent();
        }
        System.out.println("PointInTimeIT: the kill landed " + (pinned ? "after the restored lineage was pinned" : "mid-restore, before the new lineage was pinned"));
        if (killMidRestore) {
            assertThat(pinned).as("the kill landed before the restored lineage's pin was in the bucket").isFalse();
        }
        NodeProcess c = f.start("pitr-c");
        assertThat(body(c, "/get")).as("the undo restored the state before the first request").isEqualTo("three");
        body(c, "/put?v=five");
        assertThat(body(c, "/get")).isEqualTo("five");
    }
}
