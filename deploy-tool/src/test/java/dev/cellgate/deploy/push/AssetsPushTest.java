package dev.cellgate.deploy.push;

import static dev.cellgate.deploy.push.Fixtures.WORKER;
import static dev.cellgate.deploy.push.Fixtures.bucketUrl;
import static dev.cellgate.deploy.push.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.deploy.AssetManifest;
import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.deploy.bindings.AssetsBinding;
import dev.cellgate.core.deploy.bindings.AssetsConfig;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.deploy.ToolRun;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A project with {@code assets}: its directory lands content-addressed under assets/ and the manifest names it. */
class AssetsPushTest {
    private static final String CONFIG = """
            {
              "name": "site",
              "main": "src/index.js",
              "compatibility_date": "2025-04-01",
              "durable_objects": { "bindings": [ { "name": "COUNTER", "class_name": "Counter" } ] },
              "migrations": [ { "tag": "v1", "new_sqlite_classes": ["Counter"] } ],
              "assets": { "directory": "./public", "binding": "ASSETS", "not_found_handling": "single-page-application",
                          "run_worker_first": ["/api/*", "!/api/docs/*"] }
            }
            """;

    @TempDir
    Path tmp;

    private String bucket() {
        return bucketUrl(tmp.resolve("bucket"));
    }

    private Path project() throws Exception {
        Path p = tmp.resolve("p");
        write(p, "wrangler.jsonc", CONFIG);
        write(p, "src/index.js", WORKER);
        write(p, "public/index.html", "<h1>home</h1>");
        write(p, "public/app.js", "console.log(1)");
        write(p, "public/img/logo.svg", "<svg/>");
        write(p, "public/_redirects", "/old /new 301\n/broken\n");
        write(p, "public/_headers", "/*\n  X-Frame-Options: DENY\n");
        return p;
    }

    @Test
    void theDirectoryIsUploadedContentAddressedAndTheManifestNamesIt() throws Exception {
        Path p = project();
        ToolRun r = ToolRun.run("push", p.toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        JsonObject j = r.json();
        assertThat(j.getInteger("blobs_uploaded")).as("worker + 3 files + asset manifest").isEqualTo(5);
        try (BucketStore s = new BucketStores(null).open(bucket(), StoreOptions.none())) {
            Manifest m = new DeploymentStore(s).load(j.getString("deployment")).join().manifest();
            AssetsConfig cfg = m.settings().assets();
            assertThat(cfg.htmlHandling()).isEqualTo("auto-trailing-slash");
            assertThat(cfg.notFoundHandling()).isEqualTo("single-page-application");
            assertThat(cfg.runWorkerFirstRoutes()).containsExactly("/api/*", "!/api/docs/*");
            assertThat(m.bindings()).contains(new AssetsBinding("ASSETS"));
            byte[] stored = s.get(Keys.asset(cfg.manifest())).join().orElseThrow().bytes();
            assertThat(DeploymentStore.sha256(stored)).isEqualTo(cfg.manifest());
            AssetManifest am = AssetManifest.decode(stored);
            assertThat(am.files()).containsOnlyKeys("/index.html", "/app.js", "/img/logo.svg");
            assertThat(am.get("/app.js").contentType()).isEqualTo("text/javascript; charset=utf-8");
            assertThat(am.get("/img/logo.svg").contentType()).isEqualTo("image/svg+xml");
            assertThat(am.redirects()).startsWith("/old /new 301");
            assertThat(am.headers()).contains("X-Frame-Options: DENY");
            String sha = DeploymentStore.sha256("<h1>home</h1>".getBytes(StandardCharsets.UTF_8));
            assertThat(am.get("/index.html").sha256()).isEqualTo(sha);
            assertThat(new String(s.get(Keys.asset(sha)).join().orElseThrow().bytes(), StandardCharsets.UTF_8)).isEqualTo("<h1>home</h1>");
        }
    }

    @Test
    void unchangedFilesAreNotUploadedAgain() throws Exception {
        Path p = project();
        ToolRun first = ToolRun.run("push", p.toString(), "--bucket", bucket());
        assertThat(first.code()).as(first.toString()).isZero();
        assertThat(first.toString()).contains("_redirects line 2: expected 'source destination [status]', got 1 tokens, ignored");
        ToolRun same = ToolRun.run("push", p.toString(), "--bucket", bucket(), "--json");
        assertThat(same.json().getInteger("blobs_uploaded")).as(same.toString()).isZero();
        write(p, "public/app.js", "console.log(2)");
        ToolRun changed = ToolRun.run("push", p.toString(), "--bucket", bucket(), "--json");
        assertThat(changed.json().getInteger("blobs_uploaded")).as("the changed file and the new asset manifest").isEqualTo(2);
        assertThat(changed.json().getInteger("blobs_reused")).as("the worker and the two unchanged files").isEqualTo(3);
        try (var files = Files.list(tmp.resolve("bucket/assets"))) {
            assertThat(files.count()).as("3 files + 1 changed + 2 asset manifests").isEqualTo(6);
        }
    }

    @Test
    void badAssetsConfigurationIsRefusedByName() throws Exception {
        Path p = project();
        for (List<String> c : List.of(
                List.of("\"binding\": \"ASSETS\",", "\"binding\": \"ASSETS\", \"experimental_serve_directly\": true,",
                        "assets key \"experimental_serve_directly\" is not supported by cellgate"),
                List.of("\"not_found_handling\": \"single-page-application\"", "\"not_found_handling\": \"spa\"",
                        "assets.not_found_handling must be one of [404-page, none, single-page-application] (got 'spa')"),
                List.of("\"./public\"", "\"./missing\"", "is not a directory"))) {
            write(p, "wrangler.jsonc", CONFIG.replace(c.get(0), c.get(1)));
            ToolRun r = ToolRun.run("push", p.toString(), "--bucket", bucket());
            assertThat(r.code()).as(r.toString()).isNotZero();
            assertThat(r.toString()).contains(c.get(2));
        }
    }

    @Test
    void filesTheAssetsignoreNamesAreNotUploadedAndTheRuleFilesStillApply() throws Exception {
        Path p = project();
        write(p, "public/.assetsignore", "secret.txt\n*.map\n");
        write(p, "public/secret.txt", "do not publish");
        write(p, "public/app.js.map", "{}");
        ToolRun noted = ToolRun.run("push", p.toString(), "--bucket", bucket());
        assertThat(noted.code()).as(noted.toString()).isZero();
        assertThat(noted.toString()).contains("assets: 2 files left out of the upload by .assetsignore");
        ToolRun r = ToolRun.run("push", p.toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        try (BucketStore s = new BucketStores(null).open(bucket(), StoreOptions.none())) {
            AssetsConfig cfg = new DeploymentStore(s).load(r.json().getString("deployment")).join().manifest().settings().assets();
            AssetManifest am = AssetManifest.decode(s.get(Keys.asset(cfg.manifest())).join().orElseThrow().bytes());
            assertThat(am.files()).containsOnlyKeys("/index.html", "/app.js", "/img/logo.svg");
            assertThat(am.redirects()).startsWith("/old /new 301");
            assertThat(am.headers()).contains("X-Frame-Options: DENY");
            String secret = DeploymentStore.sha256("do not publish".getBytes(StandardCharsets.UTF_8));
            assertThat(s.get(Keys.asset(secret)).join()).as("the ignored file's bytes never reach the bucket").isEmpty();
        }
    }

    @Test
    void anAssetsignoreThatIsNotAFileIsRefused() throws Exception {
        Path p = project();
        Files.createDirectories(p.resolve("public/.assetsignore"));
        ToolRun r = ToolRun.run("push", p.toString(), "--bucket", bucket());
        assertThat(r.code()).as(r.toString()).isNotZero();
        assertThat(r.toString()).contains(".assetsignore is not a file");
    }

    @Test
    void aPagesWorkerJsIsRefusedByNameUnlessAnAssetsignoreExists() throws Exception {
        Path p = project();
        write(p, "public/_worker.js", "export default {}");
        ToolRun r = ToolRun.run("push", p.toString(), "--bucket", bucket());
        assertThat(r.code()).as(r.toString()).isNotZero();
        assertThat(r.toString()).contains("_worker.js file").contains("private server-side code")
                .contains("add \"_worker.js\" to a .assetsignore").contains("an empty .assetsignore");
        assertThat(tmp.resolve("bucket/deploy/current.json")).as("nothing published").doesNotExist();

        Files.delete(p.resolve("public/_worker.js"));
        write(p, "public/_worker.js/index.js", "export default {}");
        r = ToolRun.run("push", p.toString(), "--bucket", bucket());
        assertThat(r.code()).as(r.toString()).isNotZero();
        assertThat(r.toString()).contains("_worker.js directory");

        write(p, "public/.assetsignore", "");
        r = ToolRun.run("push", p.toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as("an empty .assetsignore uploads it, as Wrangler does: " + r).isZero();
        try (BucketStore s = new BucketStores(null).open(bucket(), StoreOptions.none())) {
            AssetsConfig cfg = new DeploymentStore(s).load(r.json().getString("deployment")).join().manifest().settings().assets();
            assertThat(AssetManifest.decode(s.get(Keys.asset(cfg.manifest())).join().orElseThrow().bytes()).files())
                    .containsKey("/_worker.js/index.js");
        }
    }
}
