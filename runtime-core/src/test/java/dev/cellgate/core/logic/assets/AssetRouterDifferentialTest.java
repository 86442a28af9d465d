package dev.cellgate.core.logic.assets;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same directory served by miniflare's asset worker (workerd, the reference) and by
 * {@link AssetRouter}, for a table of requests: status, every header the asset worker sets (the
 * ETag's presence, not its digest: workerd hashes differently), and the body must agree, and so
 * must the answer to If-None-Match with the file's own ETag (strong and weak) and with another.
 */
class AssetRouterDifferentialTest {
    private static final List<String> PATHS = List.of(
            "/", "/index", "/index.html", "/file", "/file.html", "/file/", "/file/index.html",
            "/folder", "/folder/", "/folder/index", "/folder/index.html", "/folder.html",
            "/both", "/both/", "/both.html", "/both/index.html", "/bin", "/bin/", "/bin.html",
            "/notes.txt", "/notes", "/sub/x", "/sub/deeper/y", "/sub", "/sub/", "/nope", "/nope/",
            "/%66ile", "/%7Etilde", "/~tilde", "/space%20name", "/space name", "//file", "/FILE",
            "/file.html?x=1", "/folder/index.html?a=b&c", "/index/", "/index/index.html");

    @TempDir
    Path tmp;

    private SiteFixture pages() {
        return new SiteFixture(tmp.resolve("site"))
                .file("/index.html", "root").file("/file.html", "file").file("/folder/index.html", "folder")
                .file("/both.html", "both-file").file("/both/index.html", "both-dir").file("/bin", "bin")
                .file("/notes.txt", "notes").file("/404.html", "not found").file("/sub/404.html", "sub not found")
                .file("/~tilde.html", "tilde").file("/space name.html", "space");
    }

    @Test
    void htmlAndNotFoundHandlingAgreeWithMiniflareOnEveryConfigAndPath() throws Exception {
        JsonArray configs = new JsonArray();
        for (String html : List.of("auto-trailing-slash", "force-trailing-slash", "drop-trailing-slash", "none")) {
            for (String nf : List.of("none", "404-page", "single-page-application")) {
                configs.add(new JsonObject().put("html_handling", html).put("not_found_handling", nf));
            }
        }
        JsonArray requests = new JsonArray();
        PATHS.forEach(p -> requests.add(get(p)));
        requests.add(new JsonObject().put("method", "HEAD").put("path", "/file"));
        requests.add(new JsonObject().put("method", "POST").put("path", "/file"));
        requests.add(new JsonObject().put("method", "POST").put("path", "/nope"));
        requests.add(get("/file").put("headers", new JsonObject().put("range", "bytes=0-1")));
        requests.add(get("/file").put("headers", new JsonObject().put("authorization", "Bearer x")));
        assertThat(differences(pages(), configs, requests)).isEmpty();
    }

    @Test
    void redirectsAndHeadersAgreeWithMiniflare() throws Exception {
        SiteFixture site = pages().file("/blog/post.html", "post").file("/blog/index.html", "blog")
                .file("/_redirects", String.join("\n",
                        "# comment", "", "/shadow /file 301", "/q /file?a=1 302", "/frag /file#top 301",
                        "/dup /file 301", "/dup /index.html 302", "/bad /file 418", "/toomany /a /b 301",
                        "/p/:a/:b /x/:b/:a 303", "/s/* /t/:splat 307", "/loop/* /loop/index.html 200",
                        "/spa/* /index.html 200", "/r/:x /blog/index.html 200", "/k/* /blog/index 200",
                        "/abs https://example.com/:x 301", "/proxyabs https://example.com/ 200",
                        "relative /file 301", "/port https://example.com:8080/p 301", "/file /index.html 302",
                        "/st /file 200", "/sth /file.html 200", "/d/* /file 200", "/d2/* /blog/:splat 200",
                        "/n/* /blog/ 200", "/stq /file?x=1 200", "/nf /nothing 200", "/chain /st 301",
                        "/st /index.html 301", "/blog/old/* /elsewhere 301", "https://localhost/hostrule /file 301",
                        "/x   /file   301   ", "/tab\t/file\t301", "/twice/*/and/* /y 301", "/e/* /blog/post.html 200"))
                .file("/_headers", String.join("\n",
                        "/*", "  X-All: one", "/blog/*", "  X-All: two", "  X-Splat: got-:splat", "/blog/post",
                        "  ! X-All", "  ! ETag", "/:name", "  X-Name: :name", "https://localhost/h*", "  X-Host: yes",
                        "/notes.txt", "  Cache-Control: max-age=10", "  Content-Type: text/markdown",
                        "/folder/*", "  X-Twice: a", "  x-twice: b", "X-Orphan: no-pattern-above"));
        JsonArray configs = new JsonArray()
                .add(new JsonObject().put("html_handling", "auto-trailing-slash").put("not_found_handling", "none"))
                .add(new JsonObject().put("html_handling", "force-trailing-slash").put("not_found_handling", "404-page"));
        JsonArray requests = new JsonArray();
        for (String p : List.of("/shadow", "/shadow?z=9", "/q?z=9", "/q", "/frag", "/frag?z", "/dup", "/bad", "/toomany",
                "/p/1/2", "/s/a/b?k", "/loop/x", "/spa/x/y", "/r/y", "/k/a", "/abs", "/proxyabs", "/relative", "/port",
                "/file", "/st", "/sth", "/d/a", "/d2/post", "/n/a", "/stq?y", "/nf", "/chain", "/blog/old/x",
                "/hostrule", "/x", "/tab", "/twice/a/and/b", "/e/a", "/blog/post", "/blog/", "/blog/zz", "/h", "/hx",
                "/notes.txt", "/folder/", "/_redirects", "/_headers", "/", "/nope")) {
            requests.add(get(p));
        }
        requests.add(new JsonObject().put("method", "POST").put("path", "/st"));
        requests.add(new JsonObject().put("method", "POST").put("path", "/shadow"));
        assertThat(differences(site, configs, requests)).isEmpty();
    }

    @Test
    void withAWorkerTheSameRequestsSplitBetweenAssetsAndWorkerAsOnMiniflare() throws Exception {
        SiteFixture site = pages().file("/api/doc.txt", "doc").file("/_redirects", "/old /file 301\n/api/moved /file 302");
        JsonArray configs = new JsonArray();
        for (String nf : List.of("none", "404-page", "single-page-application")) {
            configs.add(new JsonObject().put("html_handling", "auto-trailing-slash").put("not_found_handling", nf).put("has_user_worker", true));
        }
        configs.add(new JsonObject().put("html_handling", "drop-trailing-slash").put("not_found_handling", "none")
                .put("has_user_worker", true).put("run_worker_first", true));
        configs.add(new JsonObject().put("html_handling", "auto-trailing-slash").put("not_found_handling", "single-page-application")
                .put("has_user_worker", true).put("run_worker_first", new JsonArray().add("/api/*").add("!/api/doc.txt")));
        JsonArray requests = new JsonArray();
        for (String p : List.of("/", "/file", "/file.html", "/folder", "/nope", "/sub/x", "/old", "/api/x", "/api/doc.txt",
                "/api/moved", "/%66ile")) {
            requests.add(get(p));
        }
        requests.add(get("/nope").put("headers", new JsonObject().put("sec-fetch-mode", "navigate").put("accept", "text/html")));
        requests.add(new JsonObject().put("method", "POST").put("path", "/file"));
        requests.add(new JsonObject().put("method", "POST").put("path", "/nope"));
        assertThat(differences(site, configs, requests)).isEmpty();
    }

    private static JsonObject get(String path) {
        return new JsonObject().put("method", "GET").put("path", path);
    }

    private List<String> differences(SiteFixture site, JsonArray configs, JsonArray requests) throws Exception {
        JsonArray reference = MiniflareAssets.run(tmp, new JsonObject().put("directory", site.root.toString())
                .put("configs", configs).put("requests", requests));
        assertThat(reference).hasSize(configs.size() * requests.size());
        RedirectRules redirects = RedirectRules.parse(site.text("/_redirects"));
        HeaderRules headers = HeaderRules.parse(site.text("/_headers"));
        List<String> mismatches = new ArrayList<>();
        for (Object o : reference) {
            JsonObject row = (JsonObject) o;
            JsonObject config = row.getJsonObject("config");
            Object rwf = config.getValue("run_worker_first");
            PublicAssets router = new PublicAssets(new HtmlHandling(config.getString("html_handling"),
                    config.getString("not_found_handling"), site), redirects, headers,
                    new WorkerFirst(Boolean.TRUE.equals(rwf), rwf instanceof JsonArray a ? a.getList() : List.of()));
            boolean hasWorker = config.getBoolean("has_user_worker", false);
            String target = row.getString("path");
            int q = target.indexOf('?');
            JsonObject sent = row.getJsonObject("requestHeaders");
            AssetRequest req = new AssetRequest(row.getString("method"), "localhost",
                    UrlPaths.pathname(q < 0 ? target : target.substring(0, q)), q < 0 ? "" : target.substring(q), null,
                    sent.containsKey("range") || sent.containsKey("authorization"));
            String where = config.encode() + " " + req.method() + " " + target + " " + sent.encode();
            AssetResponse first = router.route(req, hasWorker);
            compare(where, row.getJsonObject("first"), first, site, mismatches);
            if (row.containsKey("revalidated") && first != null) {
                String etag = first.header("etag");
                compare(where + " If-None-Match: own", row.getJsonObject("revalidated"),
                        router.route(req.withIfNoneMatch(etag), hasWorker), site, mismatches);
                compare(where + " If-None-Match: W/own", row.getJsonObject("revalidatedWeak"),
                        router.route(req.withIfNoneMatch("W/" + etag), hasWorker), site, mismatches);
                compare(where + " If-None-Match: other", row.getJsonObject("revalidatedOther"),
                        router.route(req.withIfNoneMatch("\"0000\""), hasWorker), site, mismatches);
            }
        }
        return mismatches;
    }

    private static void compare(String where, JsonObject expected, AssetResponse actual, SiteFixture site, List<String> out) {
        if (actual == null || expected.getInteger("status") == 299) {
            String got = actual == null ? "the Worker" : "the assets (" + actual.status() + ")";
            String want = expected.getInteger("status") == 299 ? "the Worker" : "the assets (" + expected.getInteger("status") + ")";
            if (!got.equals(want)) {
                out.add(where + "\n   miniflare: " + want + "\n   cellgate:  " + got);
            }
            return;
        }
        Map<String, String> gotHeaders = new TreeMap<>(actual.headers());
        gotHeaders.computeIfPresent("etag", (k, v) -> "present");
        Map<String, String> wantHeaders = new TreeMap<>();
        expected.getJsonObject("headers").forEach(e -> wantHeaders.put(e.getKey(), e.getKey().equals("etag") ? "present" : (String) e.getValue()));
        String got = actual.status() + " " + gotHeaders + " body=" + (actual.body() == null ? "" : site.body(actual.file()));
        String want = expected.getInteger("status") + " " + wantHeaders + " body=" + expected.getString("body");
        if (!got.equals(want)) {
            out.add(where + "\n   miniflare: " + want + "\n   cellgate:  " + got);
        }
    }

    /** Runs src/test/resources/assets/miniflare-assets.mjs with node on a job. */
    static final class MiniflareAssets {
        static JsonArray run(Path tmp, JsonObject job) throws IOException, InterruptedException {
            String tools = System.getenv("CELLGATE_NPM_TOOLS");
            Path root = tools != null && !tools.isBlank() ? Path.of(tools) : findTools();
            Path entry = root.resolve("node_modules/miniflare/dist/src/index.js");
            if (!Files.isRegularFile(entry)) {
                throw new IllegalStateException("miniflare is not installed at " + entry + ": run .ci/npm-tools.sh or set CELLGATE_NPM_TOOLS");
            }
            Path script = tmp.resolve("miniflare-assets.mjs");
            try (var in = MiniflareAssets.class.getResourceAsStream("/assets/miniflare-assets.mjs")) {
                Files.copy(in, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            Path jobFile = tmp.resolve("job.json");
            Files.writeString(jobFile, job.encode());
            Path outFile = tmp.resolve("out.json");
            Process p = new ProcessBuilder("node", script.toString(), entry.toUri().toString(), jobFile.toString())
                    .redirectOutput(outFile.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("miniflare did not finish");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("miniflare exited " + p.exitValue());
            }
            return new JsonArray(Files.readString(outFile, StandardCharsets.UTF_8));
        }

        private static Path findTools() {
            for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
                if (Files.isRegularFile(p.resolve(".ci/npm-tools.sh"))) {
                    return p.resolve(".ci/npm-tools");
                }
            }
            throw new IllegalStateException("no .ci/npm-tools.sh above " + Path.of("").toAbsolutePath());
        }
    }
}
