package dev.cellgate.core.assets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.deploy.AssetManifest;
import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.bindings.AssetsConfig;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.assets.AssetEntry;
import dev.cellgate.core.logic.assets.AssetRequest;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Assets served from a real (file) bucket as the push stored them. */
class AssetServerTest {
    @TempDir
    Path tmp;

    private FileBucketStore bucket;

    private String store(Map<String, String> files, String redirects) {
        bucket = new FileBucketStore("file://" + tmp, tmp, false);
        Map<String, AssetEntry> entries = new TreeMap<>();
        files.forEach((path, text) -> entries.put(path, AssetObjects.putFile(bucket, path, text.getBytes(StandardCharsets.UTF_8))));
        return AssetObjects.putManifest(bucket, new AssetManifest(entries, redirects, "/*\n  X-Site: yes\n"));
    }

    private static String text(AssetServer.Served s) {
        return s == null ? "(worker)" : s.status() + " " + new String(s.body(), StandardCharsets.UTF_8);
    }

    @Test
    void withoutAWorkerTheAssetsAnswerEverythingIncludingTheFallback() {
        String m = store(Map.of("/index.html", "home", "/a.css", "css"), "/old /a.css 301");
        AssetServer s = AssetServer.load(bucket, new BlobCache(1 << 20),
                new AssetsConfig("auto-trailing-slash", "single-page-application", false, List.of(), m, false)).join();
        assertThat(text(s.servePublic(AssetRequest.get("/a.css")).join())).isEqualTo("200 css");
        assertThat(text(s.servePublic(AssetRequest.get("/route/x")).join())).isEqualTo("200 home");
        AssetServer.Served r = s.servePublic(AssetRequest.get("/old")).join();
        assertThat(r.status()).isEqualTo(301);
        assertThat(r.headers()).containsEntry("location", "/a.css").containsEntry("x-site", "yes");
        assertThat(s.servePublic(AssetRequest.get("/a.css")).join().headers())
                .containsEntry("content-type", "text/css; charset=utf-8").containsKey("etag");
    }

    /** A public request with one byte range gets those bytes (206), as Cloudflare's cache serves assets; past the end, 416. */
    @Test
    void aRangeRequestGetsThosePartsOfTheFile() {
        String m = store(Map.of("/index.html", "home", "/a.txt", "0123456789"), "");
        AssetServer s = AssetServer.load(bucket, new BlobCache(1 << 20),
                new AssetsConfig("auto-trailing-slash", "404-page", false, List.of(), m, false)).join();
        AssetServer.Served part = s.servePublic(AssetRequest.get("/a.txt").withRange("bytes=2-4", null)).join();
        assertThat(text(part)).isEqualTo("206 234");
        assertThat(part.headers()).containsEntry("content-range", "bytes 2-4/10").doesNotContainKey("cache-control");
        assertThat(text(s.servePublic(AssetRequest.get("/a.txt").withRange("bytes=-3", null)).join())).isEqualTo("206 789");
        assertThat(text(s.servePublic(AssetRequest.get("/a.txt").withRange("bytes=7-", null)).join())).isEqualTo("206 789");
        AssetServer.Served past = s.servePublic(AssetRequest.get("/a.txt").withRange("bytes=10-", null)).join();
        assertThat(text(past)).isEqualTo("416 ");
        assertThat(past.headers()).containsEntry("content-range", "bytes */10");
        String etag = part.headers().get("etag");
        assertThat(text(s.servePublic(AssetRequest.get("/a.txt").withRange("bytes=0-0", etag)).join())).isEqualTo("206 0");
        assertThat(text(s.servePublic(AssetRequest.get("/a.txt").withRange("bytes=0-0", "\"other\"")).join()))
                .as("If-Range naming another version: the whole file").isEqualTo("200 0123456789");
        assertThat(text(s.servePublic(AssetRequest.get("/a.txt").withRange("bytes=0-1,4-5", null)).join()))
                .as("several ranges: the whole file").isEqualTo("200 0123456789");
        assertThat(text(s.servePublic(AssetRequest.get("/nope").withRange("bytes=0-1", null)).join()))
                .as("a 404 page is not narrowed").isEqualTo("404 ");
    }

    @Test
    void anAssetsOnlyDeploymentAnswersAMissItselfWithNoFallbackConfigured() {
        String m = store(Map.of("/index.html", "home"), "");
        AssetServer s = AssetServer.load(bucket, new BlobCache(1 << 20),
                new AssetsConfig("auto-trailing-slash", "none", false, List.of(), m, false)).join();
        assertThat(text(s.servePublic(AssetRequest.get("/")).join())).isEqualTo("200 home");
        assertThat(s.servePublic(AssetRequest.get("/nope")).join().status()).as("a miss is the assets' 404, not the Worker's")
                .isEqualTo(404);
        AssetServer withWorker = AssetServer.load(bucket, new BlobCache(1 << 20),
                new AssetsConfig("auto-trailing-slash", "none", false, List.of(), m)).join();
        assertThat(text(withWorker.servePublic(AssetRequest.get("/nope")).join())).isEqualTo("(worker)");
    }

    @Test
    void anAssetsOnlyConfigRefusesRunWorkerFirstAndSaysSoInItsJson() {
        String m = "a".repeat(64);
        assertThatThrownBy(() -> new AssetsConfig("none", "none", true, List.of(), m, false))
                .hasMessageContaining("run_worker_first needs a Worker");
        assertThatThrownBy(() -> new AssetsConfig("none", "none", false, List.of("/api/*"), m, false))
                .hasMessageContaining("run_worker_first needs a Worker");
        AssetsConfig only = new AssetsConfig("none", "none", false, List.of(), m, false);
        assertThat(only.toJson().getBoolean("has_user_worker")).isFalse();
        assertThat(AssetsConfig.decode(only.toJson())).isEqualTo(only);
        AssetsConfig usual = new AssetsConfig("none", "none", false, List.of(), m);
        assertThat(usual.toJson().containsKey("has_user_worker")).as("unchanged for a deployment with a Worker").isFalse();
        assertThat(AssetsConfig.decode(usual.toJson())).isEqualTo(usual);
        assertThatThrownBy(() -> AssetsConfig.decode(usual.toJson().put("has_user_worker", "no")))
                .hasMessageContaining("has_user_worker");
    }

    @Test
    void withAWorkerUnmatchedAndWorkerFirstRequestsGoToTheWorker() {
        String m = store(Map.of("/index.html", "home", "/api/static.json", "{}"), "");
        AssetServer plain = AssetServer.load(bucket, new BlobCache(1 << 20),
                new AssetsConfig("auto-trailing-slash", "single-page-application", false, List.of(), m)).join();
        assertThat(text(plain.servePublic(AssetRequest.get("/")).join())).isEqualTo("200 home");
        assertThat(text(plain.servePublic(AssetRequest.get("/nope")).join())).as("no file: the Worker").isEqualTo("(worker)");
        // as miniflare answers with a Worker: a POST where an asset matches is the assets' 405, elsewhere the Worker's
        assertThat(text(plain.servePublic(new AssetRequest("POST", "h", "/", "", null, false)).join())).isEqualTo("405 ");
        assertThat(text(plain.servePublic(new AssetRequest("POST", "h", "/nope", "", null, false)).join())).isEqualTo("(worker)");
        assertThat(text(plain.serve(AssetRequest.get("/nope")).join())).as("env.ASSETS.fetch keeps the fallback").isEqualTo("200 home");

        AssetServer routed = AssetServer.load(bucket, new BlobCache(1 << 20),
                new AssetsConfig("auto-trailing-slash", "single-page-application", false, List.of("/api/*", "!/api/static.json"), m)).join();
        assertThat(text(routed.servePublic(AssetRequest.get("/api/users")).join())).isEqualTo("(worker)");
        assertThat(text(routed.servePublic(AssetRequest.get("/api/static.json")).join())).isEqualTo("200 {}");
        assertThat(text(routed.servePublic(AssetRequest.get("/nope")).join()))
                .as("with routes, the rest is the assets' alone, fallback included").isEqualTo("200 home");
    }

    @Test
    void aBlobThatDoesNotMatchItsDigestIsNeverServed() {
        String m = store(Map.of("/a.txt", "right"), "");
        String sha = DeploymentStore.sha256("right".getBytes(StandardCharsets.UTF_8));
        bucket.put(Keys.asset(sha), "wrong".getBytes(StandardCharsets.UTF_8)).join();
        AssetServer s = AssetServer.load(bucket, new BlobCache(1 << 20),
                new AssetsConfig("none", "none", false, List.of(), m)).join();
        assertThatThrownBy(() -> s.serve(AssetRequest.get("/a.txt")).join()).isInstanceOf(CompletionException.class)
                .hasMessageContaining("does not match its digest");
        // the broken variant (no digest check) serves the wrong bytes: what the assertion above guards against
        AssetServer broken = AssetServer.load(bucket, BlobCache.brokenWithoutDigestCheckForTests(1 << 20),
                new AssetsConfig("none", "none", false, List.of(), m)).join();
        assertThat(text(broken.serve(AssetRequest.get("/a.txt")).join())).isEqualTo("200 wrong");
    }
}
