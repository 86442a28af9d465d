package dev.cellgate.deploy.push;

import static dev.cellgate.deploy.push.Fixtures.CONFIG;
import static dev.cellgate.deploy.push.Fixtures.WORKER;
import static dev.cellgate.deploy.push.Fixtures.bucketUrl;
import static dev.cellgate.deploy.push.Fixtures.project;
import static dev.cellgate.deploy.push.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.deploy.Deployment;
import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.deploy.ToolRun;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Successful pushes, read back the way a node reads them ({@link DeploymentStore#load}). */
class PushTest {
    @TempDir
    Path tmp;

    String bucket() {
        return bucketUrl(tmp.resolve("bucket"));
    }

    BucketStore open() {
        return new BucketStores(null).open(bucket(), StoreOptions.none());
    }

    @Test
    void aBundleWithItsConfigBecomesCurrentAndReadsBackAsPushed() throws Exception {
        Path cfg = write(tmp, "src/wrangler.jsonc", CONFIG.replace("src/index.js", "ignored.js"));
        Path b = write(tmp, "out/worker.js", WORKER);
        ToolRun r = ToolRun.run("push", b.toString(), "--config", cfg.toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        JsonObject j = r.json();
        assertThat(j.getBoolean("ok")).isTrue();
        assertThat(j.getString("name")).isEqualTo("fixture");
        assertThat(j.getString("previous")).isNull();
        assertThat(j.getInteger("blobs_uploaded")).isEqualTo(1);
        assertThat(j.getJsonArray("exported_classes").getList()).containsExactly("Counter");
        try (BucketStore s = open()) {
            DeploymentStore d = new DeploymentStore(s);
            assertThat(d.current().join().orElseThrow().value().deployment()).isEqualTo(j.getString("deployment"));
            Deployment dep = d.load(j.getString("deployment")).join();
            Manifest m = dep.manifest();
            assertThat(m.main()).isEqualTo("worker.js");
            assertThat(dep.modules()).containsOnlyKeys("worker.js");
            assertThat(new String(dep.modules().get("worker.js"), StandardCharsets.UTF_8)).isEqualTo(WORKER);
            assertThat(m.durableObjects()).containsExactly(Map.entry("COUNTER", "Counter"));
            assertThat(m.vars()).containsExactly(Map.entry("GREETING", "world"));
            assertThat(m.compatibilityDate()).isEqualTo("2025-04-01");
            assertThat(m.migrations().encode()).contains("new_sqlite_classes");
            // content-addressed: the blob key is the SHA-256 of the bytes
            String sha = DeploymentStore.sha256(WORKER.getBytes(StandardCharsets.UTF_8));
            assertThat(m.modules().get(0).sha256()).isEqualTo(sha);
            assertThat(s.get(Keys.blob(sha)).join()).isPresent();
        }
    }

    @Test
    void pushingTheSameCodeAgainReusesBlobsAndChainsPrevious() throws Exception {
        Path b = write(tmp, "bundle.js", "export default { fetch() { return new Response('v1'); } };\n");
        JsonObject first = ToolRun.run("push", b.toString(), "--bucket", bucket(), "--json").json();
        ToolRun second = ToolRun.run("push", b.toString(), "--bucket", bucket(), "--json");
        assertThat(second.code()).isZero();
        JsonObject j = second.json();
        assertThat(j.getInteger("blobs_uploaded")).isZero();
        assertThat(j.getInteger("blobs_reused")).isEqualTo(1);
        assertThat(j.getString("deployment")).isNotEqualTo(first.getString("deployment"));
        assertThat(j.getString("previous")).isEqualTo(first.getString("deployment"));
        assertThat(j.getString("name")).as("named after the file without a config").isEqualTo("bundle");
        try (var files = Files.list(tmp.resolve("bucket/deploy-blobs/sha256"))) {
            assertThat(files.count()).isEqualTo(1);
        }
    }

    @Test
    void aProjectThatImportsIsBundledWithEsbuildAndTheBundleLoads() throws Exception {
        Esbuilds.assumeAvailable();
        Path p = project(tmp.resolve("p"), CONFIG, "import { greeting } from './greet.js';\n" + WORKER.replace("\"hello \"", "greeting"));
        write(p, "src/greet.js", "export const greeting = 'hi from greet.js ';\n");
        ToolRun r = ToolRun.run(Esbuilds.env(), "push", p.toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.json().getString("origin")).startsWith("bundled src/index.js with esbuild 0.");
        try (BucketStore s = open()) {
            Deployment dep = new DeploymentStore(s).load(r.json().getString("deployment")).join();
            assertThat(dep.manifest().main()).isEqualTo("index.js");
            assertThat(dep.modules()).hasSize(1);
            String code = new String(dep.modules().get("index.js"), StandardCharsets.UTF_8);
            assertThat(code).contains("hi from greet.js").doesNotContain("./greet.js");
        }
    }

    @Test
    void theRepositoryExamplesPushAsProjects() throws Exception {
        Esbuilds.assumeAvailable();
        for (String example : new String[] {"counter", "webapi"}) {
            ToolRun r = ToolRun.run(Esbuilds.env(), "push", ToolRun.repoRoot().resolve("examples/" + example).toString(),
                    "--bucket", bucket(), "--json");
            assertThat(r.code()).as(example + ": " + r).isZero();
            assertThat(r.json().getString("name")).isEqualTo(example);
        }
    }

    @Test
    void pluginJarsRideAlongAsBlobsListedInTheManifest() throws Exception {
        Path jar = ToolRun.repoRoot().resolve("deploy-tool/target/plugins/store-gcs.jar");
        assertThat(jar).as("built by mvn package").exists();
        Path b = write(tmp, "bundle.js", "export default { fetch() { return new Response('x'); } };\n");
        ToolRun r = ToolRun.run("push", b.toString(), "--plugin", jar.toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.json().getJsonArray("plugins").getList()).containsExactly("store-gcs.jar (store-gcs)");
        assertThat(r.json().getInteger("blobs_uploaded")).isEqualTo(2);
        try (BucketStore s = open()) {
            DeploymentStore d = new DeploymentStore(s);
            Manifest m = d.manifest(r.json().getString("deployment")).join();
            assertThat(m.plugins()).hasSize(1);
            Manifest.BlobRef ref = m.plugins().get(0);
            assertThat(ref.path()).isEqualTo("store-gcs.jar");
            assertThat(ref.size()).isEqualTo(Files.size(jar));
            assertThat(d.blob(ref).join()).isEqualTo(Files.readAllBytes(jar));
        }
    }

    @Test
    void dryRunValidatesEverythingAndWritesNothing() throws Exception {
        Path p = project(tmp.resolve("p"), CONFIG, WORKER);
        ToolRun r = ToolRun.run("push", p.toString(), "--dry-run", "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.json().getBoolean("dry_run")).isTrue();
        assertThat(r.json().getJsonArray("exported_classes").getList()).containsExactly("Counter");
        assertThat(tmp.resolve("bucket")).doesNotExist();
    }

    @Test
    void nameFlagOverridesTheConfigAndLinesProgressGoesToStderr() throws Exception {
        Path p = project(tmp.resolve("p"), CONFIG, WORKER);
        ToolRun r = ToolRun.run("push", p.toString(), "--name", "renamed", "--progress", "lines", "--bucket", bucket());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).startsWith("deployed renamed as d-");
        assertThat(r.err()).contains("[1/1] uploaded index.js").doesNotContain("\r");
    }

    @Test
    void aBarOnATerminalRedrawsInPlace() throws Exception {
        Path p = project(tmp.resolve("p"), CONFIG, WORKER);
        ToolRun r = ToolRun.run(Map.of("DEPLOY_TOOL_STDERR_TTY", "1"), "push", p.toString(), "--bucket", bucket());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.err()).contains("\r[##############################] 1/1 blobs").contains("uploaded 1 of 1 blob(s)");
    }
}
