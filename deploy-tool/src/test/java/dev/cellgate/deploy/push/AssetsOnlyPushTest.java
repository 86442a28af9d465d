package dev.cellgate.deploy.push;

import static dev.cellgate.deploy.push.Fixtures.bucketUrl;
import static dev.cellgate.deploy.push.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.deploy.bindings.AssetsConfig;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.deploy.ToolRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Wrangler project with {@code assets} and no {@code main} (Cloudflare's assets-only Worker):
 * pushed as a deployment whose assets answer every request, misses included. What Wrangler refuses
 * for such a project (an assets binding, run_worker_first) is refused by name.
 */
class AssetsOnlyPushTest {
    @TempDir
    Path tmp;

    private String bucket() {
        return bucketUrl(tmp.resolve("bucket"));
    }

    private Path project(String assets) throws Exception {
        Path p = tmp.resolve("p");
        write(p, "wrangler.jsonc", "{ \"name\": \"static-site\", \"compatibility_date\": \"2025-04-01\", \"assets\": " + assets + " }");
        write(p, "public/index.html", "<h1>home</h1>");
        write(p, "public/404.html", "<h1>gone</h1>");
        return p;
    }

    @Test
    void aProjectWithAssetsAndNoMainIsPushedAsAnAssetsOnlyDeployment() throws Exception {
        Path p = project("{ \"directory\": \"./public\", \"not_found_handling\": \"404-page\" }");
        ToolRun r = ToolRun.run("push", p.toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        try (BucketStore s = new BucketStores(null).open(bucket(), StoreOptions.none())) {
            Manifest m = new DeploymentStore(s).load(r.json().getString("deployment")).join().manifest();
            AssetsConfig cfg = m.settings().assets();
            assertThat(cfg.hasUserWorker()).as("the assets answer misses too").isFalse();
            assertThat(cfg.notFoundHandling()).isEqualTo("404-page");
            assertThat(m.name()).isEqualTo("static-site");
            assertThat(m.main()).isEqualTo(AssetsOnlyWorker.MODULE);
        }
        assertThat(r.out() + r.err()).contains("assets only");
    }

    @Test
    void anAssetsBindingWithoutMainIsRefusedAsWranglerRefusesIt() throws Exception {
        Path p = project("{ \"directory\": \"./public\", \"binding\": \"ASSETS\" }");
        PushRefusalsTest.refused(ToolRun.run("push", p.toString(), "--bucket", bucket()), "assets.binding", "\"main\"");
    }

    @Test
    void runWorkerFirstWithoutMainIsRefusedAsWranglerRefusesIt() throws Exception {
        Path p = project("{ \"directory\": \"./public\", \"run_worker_first\": true }");
        PushRefusalsTest.refused(ToolRun.run("push", p.toString(), "--bucket", bucket()), "run_worker_first", "\"main\"");
        Path routes = tmp.resolve("routes");
        write(routes, "wrangler.jsonc", "{ \"name\": \"s\", \"compatibility_date\": \"2025-04-01\", "
                + "\"assets\": { \"directory\": \"./public\", \"run_worker_first\": [\"/api/*\"] } }");
        write(routes, "public/index.html", "x");
        PushRefusalsTest.refused(ToolRun.run("push", routes.toString(), "--bucket", bucket()), "run_worker_first", "\"main\"");
    }

    @Test
    void aProjectWithNeitherMainNorAssetsIsStillRefused() throws Exception {
        Path p = tmp.resolve("empty");
        write(p, "wrangler.jsonc", "{ \"name\": \"nothing\", \"compatibility_date\": \"2025-04-01\" }");
        PushRefusalsTest.refused(ToolRun.run("push", p.toString(), "--bucket", bucket()), "has no \"main\"");
    }
}
