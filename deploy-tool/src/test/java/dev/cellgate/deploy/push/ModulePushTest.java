package dev.cellgate.deploy.push;

import static dev.cellgate.deploy.push.Fixtures.bucketUrl;
import static dev.cellgate.deploy.push.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.ToolRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pushes of bundles with several modules, as Wrangler uploads them (SPEC §14). */
class ModulePushTest {
    @TempDir
    Path tmp;

    String bucket() {
        return bucketUrl(tmp.resolve("bucket"));
    }

    /** The import check parses the module: text that looks like an import inside a string or a comment is not one. */
    @Test
    void requireInsideAStringOrACommentIsNotAnImport() throws Exception {
        Path b = write(tmp, "out/worker.js", """
                // require("left-pad") in a comment
                const help = "call require('x') or import('y') to load a module";
                /* import z from "z"; */
                export default { fetch() { return new Response(help); } };
                """);
        ToolRun r = ToolRun.run("push", b.toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
    }

    /** As Wrangler: a rule without fallthrough ends its type, and a file only a later rule of that type matches is refused. */
    @Test
    void aRuleWithoutFallthroughHidesTheDefaultOfItsType() throws Exception {
        Path b = write(tmp, "out/worker.js", "export default {};\n");
        write(tmp, "out/notes.txt", "x");
        write(tmp, "out/wrangler.json", "{ \"rules\": [ { \"type\": \"Text\", \"globs\": [\"**/*.md\"] } ] }");
        ToolRun r = ToolRun.run("push", b.toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isNotZero();
        assertThat(r.toString()).contains("The file notes.txt matched a module rule in your configuration")
                .contains("was not marked as `fallthrough = true`");
    }

    /** A static import of a module the bundle lacks is refused at push, with workerd's error, by the GraalJS load. */
    @Test
    void aStaticImportOfAMissingModuleIsRefused() throws Exception {
        Path b = write(tmp, "out/worker.js", "import x from './missing.js';\nexport default { fetch() { return new Response(x); } };\n");
        ToolRun r = ToolRun.run("push", b.toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isNotZero();
        assertThat(r.toString()).contains("No such module \\\"missing.js\\\".");
    }

    /**
     * A project with rules (the defaults and its own), find_additional_modules under base_dir and
     * source maps: every module is uploaded with its type, and the main module, which checks them
     * all while it evaluates, runs in the push's GraalJS load.
     */
    @Test
    void aProjectWithRulesAndAdditionalModulesPushesEveryModuleWithItsType() throws Exception {
        Esbuilds.assumeAvailable();
        write(tmp, "p/wrangler.jsonc", """
                { "name": "typed", "main": "src/index.ts", "compatibility_date": "2025-04-01",
                  "rules": [ { "type": "Text", "globs": ["**/*.md"], "fallthrough": true }, { "type": "CommonJS", "globs": ["**/*.cjs"] } ],
                  "find_additional_modules": true, "base_dir": "src", "upload_source_maps": true }
                """);
        write(tmp, "p/src/assets/a.txt", "plain text");
        write(tmp, "p/src/assets/readme.md", "# by a rule");
        java.nio.file.Files.write(tmp.resolve("p/src/assets/b.bin"), new byte[] {1, 2, 3});
        java.nio.file.Files.write(tmp.resolve("p/src/assets/c.wasm"), new byte[] {0, 'a', 's', 'm', 1, 0, 0, 0});
        write(tmp, "p/src/lib/dyn.cjs", "module.exports = { dyn: require('./leaf.cjs').leaf };\n");
        write(tmp, "p/src/lib/leaf.cjs", "exports.leaf = 'leaf';\n");
        write(tmp, "p/src/index.ts", """
                import a from './assets/a.txt';
                import md from './assets/readme.md';
                import bin from './assets/b.bin';
                import wasm from './assets/c.wasm';
                const s: string = "require('not-a-module')";
                const got = [a, md, new Uint8Array(bin).join(','), String(wasm instanceof WebAssembly.Module)].join('|');
                if (got !== 'plain text|# by a rule|1,2,3|true') throw new Error('modules loaded wrong: ' + got);
                export default { async fetch() { const m = await import('./lib/dyn.cjs'); return new Response(got + m.default.dyn + s); } };
                """);
        ToolRun r = ToolRun.run(Esbuilds.env(), "push", tmp.resolve("p").toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(moduleTypes(r)).containsExactlyInAnyOrderEntriesOf(java.util.Map.of(
                    "index.js", "ESModule", "index.js.map", "SourceMap",
                    // found under base_dir, so imports of them stay imports (Wrangler's module collector)
                    "assets/a.txt", "Text", "assets/readme.md", "Text", "assets/b.bin", "Data", "assets/c.wasm", "CompiledWasm",
                    "lib/dyn.cjs", "CommonJS", "lib/leaf.cjs", "CommonJS"));
    }

    /** Without find_additional_modules, an import of a file a rule types is copied beside the bundle under a hashed name. */
    @Test
    void importsOfTypedFilesBecomeModulesBesideTheBundle() throws Exception {
        Esbuilds.assumeAvailable();
        write(tmp, "p/wrangler.jsonc", "{ \"name\": \"copied\", \"main\": \"src/index.js\", \"compatibility_date\": \"2025-04-01\" }");
        write(tmp, "p/src/assets/page.html", "<p>hi</p>");
        java.nio.file.Files.write(tmp.resolve("p/src/assets/c.wasm"), new byte[] {0, 'a', 's', 'm', 1, 0, 0, 0});
        write(tmp, "p/src/index.js", """
                import page from './assets/page.html';
                import wasm from './assets/c.wasm?module';
                if (page !== '<p>hi</p>' || !(wasm instanceof WebAssembly.Module)) throw new Error('wrong modules');
                export default { fetch() { return new Response(page); } };
                """);
        ToolRun r = ToolRun.run(Esbuilds.env(), "push", tmp.resolve("p").toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(moduleTypes(r)).containsExactlyInAnyOrderEntriesOf(java.util.Map.of(
                    "index.js", "ESModule", "page-HASH.html", "Text", "c-HASH.wasm", "CompiledWasm"));
    }

    /**
     * End to end: a project with rules, additional modules and a CommonJS module pushed by the
     * tool, served by a real node ({@code java -jar gateway.jar}) from the bucket.
     */
    @Test
    void aPushedProjectOfSeveralModuleTypesRunsOnARealNode() throws Exception {
        Esbuilds.assumeAvailable();
        write(tmp, "p/wrangler.jsonc", """
                { "name": "typed-node", "main": "src/index.js", "compatibility_date": "2025-04-01",
                  "rules": [ { "type": "CommonJS", "globs": ["**/*.cjs"] } ], "find_additional_modules": true }
                """);
        write(tmp, "p/src/a.txt", "text");
        java.nio.file.Files.write(tmp.resolve("p/src/b.bin"), new byte[] {4, 2});
        // (module (func (export "two") (result i32) i32.const 2)), as wat2wasm writes it
        java.nio.file.Files.write(tmp.resolve("p/src/two.wasm"), java.util.HexFormat.of()
                .parseHex("0061736d010000000105016000017f030201000707010374776f00000a0601040041020b"));
        write(tmp, "p/src/lib/helper.cjs", "module.exports = (x) => 'cjs:' + x;\n");
        write(tmp, "p/src/index.js", """
                import a from './a.txt';
                import b from './b.bin';
                import two from './two.wasm';
                import helper from './lib/helper.cjs';
                export default { async fetch() {
                  const { exports } = await WebAssembly.instantiate(two, {});
                  return new Response([a, new Uint8Array(b).join(','), exports.two(), helper('ok')].join('|'));
                } };
                """);
        ToolRun r = ToolRun.run(Esbuilds.env(), "push", tmp.resolve("p").toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        try (dev.cellgate.deploy.RealNode node = dev.cellgate.deploy.RealNode.start(tmp, bucket(), "modules-n1")) {
            String addr = node.listening.getString("public");
            node.awaitEvent("deployment.loaded");
            java.net.http.HttpResponse<String> res = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://" + addr + "/")).timeout(java.time.Duration.ofSeconds(60))
                            .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(res.body()).as(String.join("\n", node.lines)).isEqualTo("text|4,2|2|cjs:ok");
        }
    }

    /** A bundle file with upload_source_maps: the map its sourceMappingURL names rides along as index.js.map. */
    @Test
    void aBundleFileCarriesTheSourceMapItNames() throws Exception {
        Path b = write(tmp, "out/index.js", "export default { fetch() { return new Response('x'); } };\n//# sourceMappingURL=index.js.map\n");
        write(tmp, "out/index.js.map", "{\"version\":3,\"sources\":[\"../src/index.ts\"],\"mappings\":\"AAAA\"}");
        write(tmp, "out/wrangler.json", "{ \"upload_source_maps\": true }");
        ToolRun r = ToolRun.run("push", b.toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(moduleTypes(r)).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("index.js", "ESModule", "index.js.map", "SourceMap"));
        Path noMap = write(tmp, "nomap/index.js", "export default {};\n//# sourceMappingURL=gone.js.map\n");
        write(tmp, "nomap/wrangler.json", "{ \"upload_source_maps\": true }");
        ToolRun refused = ToolRun.run("push", noMap.toString(), "--bucket", bucket(), "--json");
        assertThat(refused.code()).isNotZero();
        assertThat(refused.toString()).contains("Invalid source map path in").contains("gone.js.map does not exist.");
    }

    /** The pushed deployment's modules with their types from its manifest (esbuild's hashes as HASH). */
    java.util.Map<String, String> moduleTypes(ToolRun r) {
        try (dev.cellgate.core.spi.bucket.BucketStore s = new dev.cellgate.core.plugin.BucketStores(null).open(bucket(),
                dev.cellgate.core.spi.bucket.StoreOptions.none())) {
            dev.cellgate.core.deploy.Manifest m = new dev.cellgate.core.deploy.DeploymentStore(s).manifest(r.json().getString("deployment")).join();
            java.util.Map<String, String> types = new java.util.TreeMap<>();
            m.modules().forEach(ref -> types.put(ref.path().replaceAll("-[A-Z0-9]{8}\\.", "-HASH."), ref.moduleType().wranglerName()));
            return types;
        }
    }
}
