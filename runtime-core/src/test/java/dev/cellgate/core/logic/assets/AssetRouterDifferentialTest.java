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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same directory served by miniflare's asset worker (workerd, the reference) and by
 * {@link AssetRouter}, under every html_handling x not_found_handling, for a table of request
 * paths: status, Location, body, Content-Type, Cache-Control and ETag presence must agree, and so
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

    @Test
    void agreesWithMiniflareOnEveryConfigAndPath() throws Exception {
        SiteFixture site = new SiteFixture(tmp.resolve("site"))
                .file("/index.html", "root").file("/file.html", "file").file("/folder/index.html", "folder")
                .file("/both.html", "both-file").file("/both/index.html", "both-dir").file("/bin", "bin")
                .file("/notes.txt", "notes").file("/404.html", "not found").file("/sub/404.html", "sub not found")
                .file("/~tilde.html", "tilde").file("/space name.html", "space");
        JsonArray configs = new JsonArray();
        for (String html : List.of("auto-trailing-slash", "force-trailing-slash", "drop-trailing-slash", "none")) {
            for (String nf : List.of("none", "404-page", "single-page-application")) {
                configs.add(new JsonObject().put("html_handling", html).put("not_found_handling", nf));
            }
        }
        JsonArray requests = new JsonArray();
        for (String p : PATHS) {
            requests.add(new JsonObject().put("method", "GET").put("path", p));
        }
        requests.add(new JsonObject().put("method", "HEAD").put("path", "/file"));
        requests.add(new JsonObject().put("method", "POST").put("path", "/file"));
        requests.add(new JsonObject().put("method", "POST").put("path", "/nope"));
        JsonArray reference = MiniflareAssets.run(tmp, new JsonObject().put("directory", site.root.toString())
                .put("configs", configs).put("requests", requests));
        assertThat(reference).hasSize(configs.size() * requests.size());

        List<String> mismatches = new ArrayList<>();
        for (Object o : reference) {
            JsonObject row = (JsonObject) o;
            JsonObject config = row.getJsonObject("config");
            AssetRouter router = new AssetRouter(new HtmlHandling(config.getString("html_handling"),
                    config.getString("not_found_handling"), site));
            String target = row.getString("path");
            int q = target.indexOf('?');
            String pathname = UrlPaths.pathname(q < 0 ? target : target.substring(0, q));
            String search = q < 0 ? "" : target.substring(q);
            String method = row.getString("method");
            String where = config.encode() + " " + method + " " + target;
            AssetResponse first = router.route(method, pathname, search, null);
            compare(where, row.getJsonObject("first"), first, site, mismatches);
            if (row.containsKey("revalidated")) {
                String etag = first.header("ETag");
                compare(where + " If-None-Match: own", row.getJsonObject("revalidated"),
                        router.route(method, pathname, search, etag), site, mismatches);
                compare(where + " If-None-Match: W/own", row.getJsonObject("revalidatedWeak"),
                        router.route(method, pathname, search, "W/" + etag), site, mismatches);
                compare(where + " If-None-Match: other", row.getJsonObject("revalidatedOther"),
                        router.route(method, pathname, search, "\"0000\""), site, mismatches);
            }
        }
        assertThat(mismatches).isEmpty();
    }

    private static void compare(String where, JsonObject expected, AssetResponse actual, SiteFixture site, List<String> out) {
        String body = actual.body() == null ? "" : site.body(actual.file());
        String got = "status=" + actual.status() + " location=" + actual.header("Location") + " body=" + body
                + " type=" + actual.header("Content-Type") + " cache=" + actual.header("Cache-Control")
                + " etag=" + (actual.header("ETag") != null);
        String want = "status=" + expected.getInteger("status") + " location=" + expected.getString("location")
                + " body=" + expected.getString("body") + " type=" + expected.getString("contentType")
                + " cache=" + expected.getString("cacheControl") + " etag=" + (expected.getString("etag") != null);
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
                Files.copy(in, script);
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
