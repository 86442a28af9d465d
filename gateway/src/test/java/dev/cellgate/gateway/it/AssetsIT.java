package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.assets.AssetObjects;
import dev.cellgate.core.deploy.AssetManifest;
import dev.cellgate.core.deploy.DeploymentIds;
import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.deploy.WorkerSettings;
import dev.cellgate.core.deploy.bindings.AssetsConfig;
import dev.cellgate.core.logic.assets.AssetEntry;
import dev.cellgate.core.spi.bucket.BucketStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real node serves a deployment's static assets before its Worker, as stored by the push. */
class AssetsIT {
    private static final String WORKER = """
            export default { fetch(req, env) {
              const path = new URL(req.url).pathname;
              if (path.startsWith('/binding/')) return env.ASSETS.fetch(new URL(path.slice('/binding'.length), req.url));
              return new Response('worker ' + path);
            } };
            """;

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    /** Stores files + rules as the push does and makes a deployment with them current. */
    static String publish(BucketStore b, Map<String, String> files, String redirects, List<String> workerFirst) {
        return publish(b, files, redirects, workerFirst, "single-page-application", true);
    }

    /** As above, with {@code not_found_handling}; {@code hasUserWorker} false makes it an assets-only deployment. */
    static String publish(BucketStore b, Map<String, String> files, String redirects, List<String> workerFirst, String notFound,
                          boolean hasUserWorker) {
        Map<String, AssetEntry> entries = new TreeMap<>();
        files.forEach((path, text) -> entries.put(path, AssetObjects.putFile(b, path, text.getBytes(StandardCharsets.UTF_8))));
        String digest = AssetObjects.putManifest(b, new AssetManifest(entries, redirects, "/*\n  X-Served-By: assets\n"));
        DeploymentStore d = new DeploymentStore(b);
        byte[] code = WORKER.getBytes(StandardCharsets.UTF_8);
        d.putBlob(code).join();
        String id = DeploymentIds.next(System.currentTimeMillis());
        Manifest plain = new Manifest(id, "site", System.currentTimeMillis(), "index.js",
                List.of(new Manifest.BlobRef("index.js", DeploymentStore.sha256(code), code.length)), Map.of(), Map.of(), null,
                "2025-04-01", List.of(), null, List.of());
        Manifest m = new Manifest(id, plain.name(), plain.createdMs(), plain.main(), plain.modules(),
                List.of(new dev.cellgate.core.deploy.bindings.AssetsBinding("ASSETS")),
                plain.migrations(), plain.compatibilityDate(), plain.compatibilityFlags(), plain.triggers(), plain.plugins(),
                new WorkerSettings(new AssetsConfig("auto-trailing-slash", notFound, false, workerFirst, digest, hasUserWorker), List.of(), null, null, null));
        assertThat(d.putManifest(m).join().written()).isTrue();
        var cur = d.current().join();
        assertThat(d.moveCurrent(cur, id, System.currentTimeMillis()).join().written()).isTrue();
        return id;
    }

    private HttpResponse<String> get(NodeProcess n, String path, String... headers) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(n.publicUrl(path))).timeout(Duration.ofSeconds(30));
        for (int i = 0; i < headers.length; i += 2) {
            r.header(headers[i], headers[i + 1]);
        }
        return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void assetsAnswerFirstThenTheWorkerAndANewDeploymentBringsItsOwnAssets() throws Exception {
        try (Fleet f = Fleet.onFileBucket(dir, Map.of()); BucketStore b = f.openBucket()) {
            publish(b, Map.of("/index.html", "home v1", "/style.css", "body{}", "/api/doc.txt", "doc"), "/old /style.css 301",
                    List.of("/api/*", "!/api/doc.txt", "/binding/*"));
            NodeProcess n = f.start("a1");
            HttpResponse<String> home = get(n, "/");
            assertThat(home.statusCode()).isEqualTo(200);
            assertThat(home.body()).isEqualTo("home v1");
            assertThat(home.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
            assertThat(home.headers().firstValue("x-served-by")).hasValue("assets");
            String etag = home.headers().firstValue("etag").orElseThrow();
            HttpResponse<String> again = get(n, "/", "If-None-Match", etag);
            assertThat(again.statusCode()).isEqualTo(304);
            assertThat(again.body()).isEmpty();
            assertThat(get(n, "/index.html").headers().firstValue("location")).hasValue("/");
            HttpResponse<String> old = get(n, "/old?x=1");
            assertThat(old.statusCode()).isEqualTo(301);
            assertThat(old.headers().firstValue("location")).hasValue("/style.css?x=1");
            assertThat(get(n, "/style.css").body()).isEqualTo("body{}");
            HttpResponse<String> part = get(n, "/style.css", "Range", "bytes=1-3");
            assertThat(part.statusCode()).isEqualTo(206);
            assertThat(part.body()).isEqualTo("ody");
            assertThat(part.headers().firstValue("content-range")).hasValue("bytes 1-3/6");
            assertThat(get(n, "/style.css", "Range", "bytes=6-").statusCode()).isEqualTo(416);
            assertThat(get(n, "/nothing/here").body()).as("run_worker_first routes: the rest is the assets', SPA fallback included")
                    .isEqualTo("home v1");
            assertThat(get(n, "/api/users").body()).as("run_worker_first").isEqualTo("worker /api/users");
            assertThat(get(n, "/api/doc.txt").body()).as("excluded from run_worker_first").isEqualTo("doc");
            assertThat(get(n, "/binding/style.css").body()).as("env.ASSETS.fetch").isEqualTo("body{}");
            assertThat(get(n, "/binding/spa/route").body()).as("env.ASSETS.fetch keeps not_found_handling").isEqualTo("home v1");

            publish(b, Map.of("/index.html", "home v2"), "", List.of());
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!get(n, "/").body().equals("home v2") && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(get(n, "/").body()).isEqualTo("home v2");
            assertThat(get(n, "/style.css").body()).as("not in the new deployment's assets, no routes: the Worker")
                    .isEqualTo("worker /style.css");

            // An assets-only deployment (a project without "main"): a miss is the assets' 404 page, never the Worker.
            publish(b, Map.of("/index.html", "home v3", "/404.html", "gone"), "", List.of(), "404-page", false);
            deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!get(n, "/").body().equals("home v3") && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            HttpResponse<String> miss = get(n, "/style.css");
            assertThat(miss.statusCode()).isEqualTo(404);
            assertThat(miss.body()).as("assets only: the 404 page answers a miss").isEqualTo("gone");
            assertThat(get(n, "/api/users").body()).isEqualTo("gone");
        }
    }
}
