package dev.cellgate.deploy.push;

import static dev.cellgate.deploy.push.Fixtures.bucketUrl;
import static dev.cellgate.deploy.push.Fixtures.project;
import static dev.cellgate.deploy.push.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.deploy.Deployment;
import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.deploy.ToolRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Node built-ins at push time, as Wrangler resolves them: without {@code nodejs_compat} an import
 * of {@code node:buffer} is refused naming the module; with it the bundle keeps {@code node:*}
 * external (bare names rewritten to {@code node:} under nodejs_compat_v2, from 2024-09-23), loads in
 * GraalJS and runs there (the module's top level checks Buffer, so a broken Buffer fails the push).
 */
class NodeCompatPushTest {
    @TempDir
    Path tmp;

    static final String USES_BUFFER = """
            import { Buffer } from "node:buffer";
            const hex = Buffer.from("hi").toString("hex");
            if (hex !== "6869") throw new Error("Buffer answered " + hex);
            export default { async fetch() { return new Response(hex); } };
            """;

    static String config(String date, String flags) {
        return "{ \"name\": \"nodeapp\", \"main\": \"src/index.js\", \"compatibility_date\": \"" + date + "\","
                + " \"compatibility_flags\": [" + flags + "] }";
    }

    ToolRun push(Path target, String... extra) {
        String[] argv = new String[extra.length + 4];
        argv[0] = "push";
        argv[1] = target.toString();
        System.arraycopy(extra, 0, argv, 2, extra.length);
        argv[extra.length + 2] = "--bucket";
        argv[extra.length + 3] = bucketUrl(tmp.resolve("bucket"));
        return ToolRun.run(Esbuilds.env(), argv);
    }

    /** {@code push dir/bundle.js}: a bundle pushed as it is, with a wrangler.json beside it. */
    ToolRun pushBundle(String dir, String source, String date, String flags) throws Exception {
        Path bundle = write(tmp, dir + "/bundle.js", source);
        write(tmp, dir + "/wrangler.json", config(date, flags));
        return push(bundle);
    }

    @Test
    void withoutTheFlagANodeImportIsRefusedNamingIt() throws Exception {
        Esbuilds.assumeAvailable();
        Path p = project(tmp.resolve("p"), config("2025-06-01", ""), USES_BUFFER);
        ToolRun r = push(p);
        PushRefusalsTest.refused(r, "node:buffer", "nodejs_compat");
        assertThat(Files.exists(tmp.resolve("bucket"))).as("nothing written").isFalse();
    }

    @Test
    void aSingleModuleBundleImportingNodeWithoutTheFlagIsRefusedNamingIt() throws Exception {
        ToolRun r = pushBundle("b", USES_BUFFER, "2025-06-01", "");
        PushRefusalsTest.refused(r, "node:buffer", "nodejs_compat");
    }

    @Test
    void withTheFlagItDeploysKeepsNodeExternalAndRunsAtLoad() throws Exception {
        Esbuilds.assumeAvailable();
        Path p = project(tmp.resolve("p"), config("2025-06-01", "\"nodejs_compat\""),
                "import path from 'path';\nimport listeners from './dep.cjs';\nif (listeners !== 0) throw new Error('events: ' + listeners);\n"
                        + USES_BUFFER.replace("\"hi\"", "path.basename(\"/x/hi\")"));
        // a CommonJS dependency that require()s a bare built-in, as npm packages do
        write(p, "src/dep.cjs", "const { EventEmitter } = require('events');\nmodule.exports = new EventEmitter().listenerCount('x');\n");
        ToolRun r = push(p, "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        try (BucketStore s = new BucketStores(null).open(bucketUrl(tmp.resolve("bucket")), StoreOptions.none())) {
            Deployment dep = new DeploymentStore(s).load(r.json().getString("deployment")).join();
            String code = new String(dep.modules().get("index.js"), StandardCharsets.UTF_8);
            // bare "path" is rewritten to node:path (nodejs_compat_v2), and neither is bundled
            assertThat(code).contains("\"node:buffer\"").contains("\"node:path\"").doesNotContain("from \"path\"");
            // require("events") became an import of node:events behind the bundle's own require()
            assertThat(code).contains("from \"node:events\"").doesNotContain("require(\"events\")");
        }
    }

    /**
     * upload_source_maps with the require() banner (esbuild's second pass): the map uploaded is the
     * final bundle's, so the line it gives for the original throw holds that throw.
     */
    @Test
    void theSourceMapDescribesTheBundleWithItsRequireBanner() throws Exception {
        Esbuilds.assumeAvailable();
        Path p = project(tmp.resolve("p"), config("2025-06-01", "\"nodejs_compat\"").replace(" }", ", \"upload_source_maps\": true }"),
                "import listeners from './dep.cjs';\nexport default {\n  fetch() {\n    throw new Error('thrown ' + listeners);\n  },\n};\n");
        write(p, "src/dep.cjs", "const { EventEmitter } = require('events');\nmodule.exports = new EventEmitter().listenerCount('x');\n");
        ToolRun r = push(p, "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        try (BucketStore s = new BucketStores(null).open(bucketUrl(tmp.resolve("bucket")), StoreOptions.none())) {
            Deployment dep = new DeploymentStore(s).load(r.json().getString("deployment")).join();
            String[] lines = new String(dep.modules().get("index.js"), StandardCharsets.UTF_8).split("\n", -1);
            assertThat(lines[0]).as("the banner is there").contains("require() of Node built-ins");
            io.vertx.core.json.JsonObject map = new io.vertx.core.json.JsonObject(
                    new String(dep.modules().get("index.js.map"), StandardCharsets.UTF_8));
            int source = map.getJsonArray("sources").getList().indexOf("src/index.js");
            int generated = generatedLineOf(map.getString("mappings"), source, 3);
            assertThat(generated).as("a mapping for src/index.js line 4").isNotNegative();
            assertThat(lines[generated]).contains("throw new Error(\"thrown \"");
        }
    }

    /** The first generated line (0-based) that a source map maps to {@code line} (0-based) of source {@code source}, or -1. */
    static int generatedLineOf(String mappings, int source, int line) {
        int src = 0;
        int orig = 0;
        String[] generatedLines = mappings.split(";", -1);
        for (int g = 0; g < generatedLines.length; g++) {
            for (String segment : generatedLines[g].split(",")) {
                int[] f = vlq(segment);
                if (f.length >= 4) {
                    src += f[1];
                    orig += f[2];
                    if (src == source && orig == line) {
                        return g;
                    }
                }
            }
        }
        return -1;
    }

    private static int[] vlq(String segment) {
        java.util.List<Integer> out = new java.util.ArrayList<>();
        int value = 0;
        int shift = 0;
        for (char c : segment.toCharArray()) {
            int digit = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".indexOf(c);
            value += (digit & 31) << shift;
            shift += 5;
            if ((digit & 32) == 0) {
                out.add((value & 1) == 1 ? -(value >>> 1) : value >>> 1);
                value = 0;
                shift = 0;
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    @Test
    void aSingleModuleBundleImportingNodeWithTheFlagDeploys() throws Exception {
        ToolRun r = pushBundle("b", USES_BUFFER, "2025-06-01", "\"nodejs_compat\"");
        assertThat(r.code()).as(r.toString()).isZero();
    }

    @Test
    void beforeNodejsCompatV2ABareBuiltinIsRefusedSayingToPrefixIt() throws Exception {
        Esbuilds.assumeAvailable();
        Path p = project(tmp.resolve("p"), config("2024-06-01", "\"nodejs_compat\""),
                "import path from 'path';\nexport default { fetch() { return new Response(path.sep); } };\n");
        ToolRun r = push(p);
        PushRefusalsTest.refused(r, "\"path\"", "node:", "2024-09-23");
    }

    @Test
    void aSingleModuleBundleImportingABareBuiltinBeforeV2IsRefusedSayingToPrefixIt() throws Exception {
        // pushed as it is (nothing rewrites it): the load check finds no module "path" and says why
        for (String imp : new String[] {"import path from \"path\";", "import { sep } from \"path\";"}) {
            ToolRun r = pushBundle("v1", imp + "\nexport default { fetch() { return new Response('x'); } };\n", "2024-06-01",
                    "\"nodejs_compat\"");
                PushRefusalsTest.refused(r, "\"path\" is a Node.js built-in module", "2024-09-23");
        }
    }

    @Test
    void aModuleWorkerdLacksAtTheDateIsRefusedAtLoadNamingIt() throws Exception {
        Esbuilds.assumeAvailable();
        Path p = project(tmp.resolve("p"), config("2025-06-01", "\"nodejs_compat\""),
                "import os from 'node:os';\nexport default { fetch() { return new Response(os.EOL); } };\n");
        ToolRun r = push(p);
        PushRefusalsTest.refused(r, "No such module \"node:os\"");
    }
}
