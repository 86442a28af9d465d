package dev.cellgate.deploy.push;

import static dev.cellgate.deploy.push.Fixtures.CONFIG;
import static dev.cellgate.deploy.push.Fixtures.WORKER;
import static dev.cellgate.deploy.push.Fixtures.bucketUrl;
import static dev.cellgate.deploy.push.Fixtures.project;
import static dev.cellgate.deploy.push.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.deploy.ToolRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC §14 through {@code deploy-tool push}: wrangler.toml, environments, every refused key in one
 * error, one note per hosting-metadata key, recorded in the manifest.
 */
class PushWranglerConfigTest {
    @TempDir
    Path tmp;

    static final String TOML = """
            name = "fixture"
            main = "src/index.js"
            compatibility_date = 2025-04-01
            workers_dev = false

            [vars]
            GREETING = "toml"

            [[durable_objects.bindings]]
            name = "COUNTER"
            class_name = "Counter"

            [[migrations]]
            tag = "v1"
            new_sqlite_classes = ["Counter"]

            [env.staging.vars]
            GREETING = "staging"

            [[env.staging.durable_objects.bindings]]
            name = "COUNTER"
            class_name = "Counter"
            """;

    ToolRun push(String... argv) {
        String[] all = Stream.concat(Stream.of("push"), Stream.concat(Stream.of(argv),
                Stream.of("--bucket", bucketUrl(tmp.resolve("bucket"))))).toArray(String[]::new);
        return ToolRun.run(Esbuilds.env(), all);
    }

    /** The current deployment's manifest, as nodes read it. */
    static Manifest onlyManifest(Path bucket) {
        try (BucketStore s = new BucketStores(null).open(bucketUrl(bucket), StoreOptions.none())) {
            DeploymentStore d = new DeploymentStore(s);
            return d.manifest(d.current().join().orElseThrow().value().deployment()).join();
        }
    }

    /** The text of the current deployment's main module. */
    static String mainModule(Path bucket) {
        try (BucketStore s = new BucketStores(null).open(bucketUrl(bucket), StoreOptions.none())) {
            DeploymentStore d = new DeploymentStore(s);
            Manifest m = d.manifest(d.current().join().orElseThrow().value().deployment()).join();
            return new String(d.blob(m.modules().get(0)).join(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @BeforeEach
    void esbuild() {
        Esbuilds.assumeAvailable();
    }

    @Test
    void aWranglerTomlProjectDeploys() throws Exception {
        write(tmp, "p/wrangler.toml", TOML);
        write(tmp, "p/src/index.js", WORKER);
        ToolRun r = push(tmp.resolve("p").toString());
        assertThat(r.code()).as(r.toString()).isZero();
        Manifest m = onlyManifest(tmp.resolve("bucket"));
        assertThat(m.vars()).containsEntry("GREETING", "toml");
        assertThat(m.durableObjects()).containsEntry("COUNTER", "Counter");
        assertThat(m.compatibilityDate()).isEqualTo("2025-04-01");
    }

    @Test
    void cronTriggersArePushedAsWrittenAndABadOneRefusesThePush() throws Exception {
        write(tmp, "p/wrangler.toml", TOML.replace("workers_dev = false\n",
                "workers_dev = false\n\n[triggers]\ncrons = [\"*/5 * * * *\", \"0 18 * * friL\"]\n"));
        write(tmp, "p/src/index.js", WORKER);
        ToolRun r = push(tmp.resolve("p").toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(onlyManifest(tmp.resolve("bucket")).triggers().crons()).containsExactly("*/5 * * * *", "0 18 * * friL");

        write(tmp, "q/wrangler.toml", TOML.replace("workers_dev = false\n", "workers_dev = false\n\n[triggers]\ncrons = [\"0 25 * * *\"]\n"));
        write(tmp, "q/src/index.js", WORKER);
        ToolRun bad = push(tmp.resolve("q").toString());
        PushRefusalsTest.refused(bad, "invalid cron expression \"0 25 * * *\"");
    }

    @Test
    void limitsCpuMsReachesTheManifestAndAnEnvironmentInheritsIt() throws Exception {
        write(tmp, "p/wrangler.toml", TOML.replace("workers_dev = false\n", "workers_dev = false\n\n[limits]\ncpu_ms = 50\n"));
        write(tmp, "p/src/index.js", WORKER);
        ToolRun r = push(tmp.resolve("p").toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(onlyManifest(tmp.resolve("bucket")).settings().cpuMs()).isEqualTo(50L);
        ToolRun staging = push(tmp.resolve("p").toString(), "--env", "staging");
        assertThat(staging.code()).as(staging.toString()).isZero();
        assertThat(onlyManifest(tmp.resolve("bucket")).settings().cpuMs()).as("limits is inherited, as in Wrangler").isEqualTo(50L);
    }

    @Test
    void envPicksTheEnvironmentWithItsOwnVarsAndTheSuffixedName() throws Exception {
        write(tmp, "p/wrangler.toml", TOML);
        write(tmp, "p/src/index.js", WORKER);
        ToolRun r = push(tmp.resolve("p").toString(), "--env", "staging");
        assertThat(r.code()).as(r.toString()).isZero();
        Manifest m = onlyManifest(tmp.resolve("bucket"));
        assertThat(m.name()).isEqualTo("fixture-staging");
        assertThat(m.vars()).containsEntry("GREETING", "staging");
        assertThat(m.settings().environment()).isEqualTo("staging");
    }

    @Test
    void everyRefusedKeyIsNamedInOneErrorAndNothingIsWritten() throws Exception {
        project(tmp.resolve("p"), CONFIG.replace("\"name\": \"fixture\",", "\"name\": \"fixture\", \"ai\": {\"binding\": \"AI\"},"
                + " \"vectorize\": [], \"site\": {\"bucket\": \"./public\"}, \"hyperdrive\": [], \"no_such_key\": 1,"), WORKER);
        ToolRun r = push(tmp.resolve("p").toString());
        PushRefusalsTest.refused(r, "5 problems", "\"ai\"", "\"vectorize\"", "\"site\"", "\"hyperdrive\"", "\"no_such_key\"");
        assertThat(Files.exists(tmp.resolve("bucket"))).as("nothing written").isFalse();
    }

    @Test
    void hostingMetadataKeysDeployWithOneNoteEachAndAreRecorded() throws Exception {
        project(tmp.resolve("p"), CONFIG.replace("\"name\": \"fixture\",", "\"name\": \"fixture\","
                + " \"observability\": {\"enabled\": true}, \"upload_source_maps\": false, \"preview_urls\": false,"
                + " \"routes\": [{\"pattern\": \"example.com/*\", \"zone_name\": \"example.com\"}], \"workers_dev\": true,"
                + " \"placement\": {\"mode\": \"smart\"},"), WORKER);
        ToolRun r = push(tmp.resolve("p").toString());
        assertThat(r.code()).as(r.toString()).isZero();
        for (String key : new String[] {"observability", "preview_urls", "routes", "workers_dev", "placement"}) {
            assertThat(r.err().split("note: " + key + " has no effect on a self-hosted fleet", -1)).as(key + ": " + r.err()).hasSize(2);
        }
        Manifest m = onlyManifest(tmp.resolve("bucket"));
        assertThat(m.settings().hosting().getJsonArray("routes").getJsonObject(0).getString("pattern")).isEqualTo("example.com/*");
        assertThat(m.settings().hosting().getBoolean("workers_dev")).isTrue();
    }

    @Test
    void bundlerKeysWithNoBundleAreNotedAsChangingNothing() throws Exception {
        write(tmp, "p/wrangler.json", "{ \"name\": \"nb\", \"main\": \"src/index.js\", \"no_bundle\": true,"
                + " \"define\": { \"X\": \"1\" }, \"minify\": true }");
        write(tmp, "p/src/index.js", "export default { fetch() { return new Response('as it is'); } };\n");
        ToolRun r = push(tmp.resolve("p").toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.err()).contains("note: define, minify only change(s) what esbuild bundles, and no_bundle is pushed as it is");
        assertThat(mainModule(tmp.resolve("bucket"))).contains("as it is");
    }
}
