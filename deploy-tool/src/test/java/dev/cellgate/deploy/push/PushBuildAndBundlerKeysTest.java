package dev.cellgate.deploy.push;

import static dev.cellgate.deploy.push.Fixtures.bucketUrl;
import static dev.cellgate.deploy.push.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.ToolRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code build.command} runs before bundling, and the bundler keys reach the real esbuild:
 * {@code define}, {@code alias}, {@code minify}, {@code tsconfig} — each checked in the bundle bytes pushed.
 */
class PushBuildAndBundlerKeysTest {
    @TempDir
    Path tmp;

    @BeforeEach
    void esbuild() {
        Esbuilds.assumeAvailable();
    }

    ToolRun push(String... argv) {
        String[] all = Stream.concat(Stream.of("push"), Stream.concat(Stream.of(argv),
                Stream.of("--bucket", bucketUrl(tmp.resolve("bucket"))))).toArray(String[]::new);
        return ToolRun.run(Esbuilds.env(), all);
    }

    String pushedMain() {
        return PushWranglerConfigTest.mainModule(tmp.resolve("bucket"));
    }

    @Test
    void buildCommandRunsInBuildCwdBeforeBundlingAndItsOutputIsBundled() throws Exception {
        // the entry does not exist until the build writes it: bundling first would fail
        write(tmp, "p/wrangler.jsonc", """
                { "name": "built", "main": "dist/index.js", "compatibility_date": "2025-04-01",
                  "build": { "command": "mkdir -p ../dist && cp gen.js ../dist/index.js", "cwd": "tools", "watch_dir": "src" } }
                """);
        write(tmp, "p/tools/gen.js", "export default { fetch() { return new Response('made by the build'); } };\n");
        ToolRun r = push(tmp.resolve("p").toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.err()).contains("running build.command").contains("note: build.watch_dir");
        assertThat(pushedMain()).contains("made by the build");
    }

    @Test
    void aFailingBuildCommandRefusesThePushWithItsOutput() throws Exception {
        write(tmp, "p/wrangler.jsonc", """
                { "name": "built", "main": "src/index.js", "build": { "command": "echo broken-build >&2; exit 7" } }
                """);
        write(tmp, "p/src/index.js", "export default { fetch() { return new Response('x'); } };\n");
        ToolRun r = push(tmp.resolve("p").toString());
        PushRefusalsTest.refused(r, "build.command", "exit 7", "broken-build");
        assertThat(Files.exists(tmp.resolve("bucket"))).isFalse();
    }

    @Test
    void defineAliasMinifyAndTsconfigReachEsbuild() throws Exception {
        write(tmp, "p/wrangler.jsonc", """
                { "name": "keys", "main": "src/index.ts", "compatibility_date": "2025-04-01",
                  "define": { "BUILD_FLAVOUR": "\\"from-define\\"" },
                  "alias": { "greeting-lib": "./src/real-greeting.ts" },
                  "tsconfig": "./tsconfig.build.json",
                  "minify": true, "keep_names": false }
                """);
        // only this tsconfig's paths make "@lib/suffix" resolvable
        write(tmp, "p/tsconfig.build.json", "{ \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@lib/*\": [\"./src/lib/*\"] } } }\n");
        write(tmp, "p/src/lib/suffix.ts", "export const suffix: string = 'via-tsconfig-paths';\n");
        write(tmp, "p/src/real-greeting.ts", "export const greeting: string = 'aliased-greeting';\n");
        write(tmp, "p/src/index.ts", """
                import { greeting } from "greeting-lib";
                import { suffix } from "@lib/suffix";
                declare const BUILD_FLAVOUR: string;
                export default {
                  async fetch(): Promise<Response> {
                    const someVeryLongLocalVariableName = BUILD_FLAVOUR + ":" + greeting + ":" + suffix;
                    return new Response(someVeryLongLocalVariableName);
                  }
                };
                """);
        ToolRun r = push(tmp.resolve("p").toString());
        assertThat(r.code()).as(r.toString()).isZero();
        String main = pushedMain();
        assertThat(main).contains("from-define").contains("aliased-greeting").contains("via-tsconfig-paths")
                .doesNotContain("BUILD_FLAVOUR").doesNotContain("someVeryLongLocalVariableName");
    }

    @Test
    void jsxFactoryAndFragmentAndKeepNamesReachEsbuild() throws Exception {
        write(tmp, "p/wrangler.jsonc", """
                { "name": "jsx", "main": "src/index.jsx", "compatibility_date": "2025-04-01",
                  "jsx_factory": "makeNode", "jsx_fragment": "MadeFragment" }
                """);
        write(tmp, "p/src/index.jsx", """
                const makeNode = (t, p, ...c) => JSON.stringify([typeof t === "string" ? t : "frag", c]);
                const MadeFragment = "frag";
                function renderPage() { return <><p>hi</p></>; }
                export default { fetch() { return new Response(renderPage()); } };
                """);
        ToolRun r = push(tmp.resolve("p").toString());
        assertThat(r.code()).as(r.toString()).isZero();
        String main = pushedMain();
        assertThat(main).contains("makeNode(MadeFragment").contains("makeNode(\"p\"")
                .as("keep_names defaults to true, as in Wrangler").contains("__name(renderPage, \"renderPage\")");
    }

    @Test
    void aMissingTsconfigIsRefusedByName() throws Exception {
        write(tmp, "p/wrangler.jsonc", "{ \"name\": \"k\", \"main\": \"src/index.js\", \"tsconfig\": \"nope.json\" }");
        write(tmp, "p/src/index.js", "export default { fetch() { return new Response('x'); } };\n");
        PushRefusalsTest.refused(push(tmp.resolve("p").toString()), "tsconfig", "nope.json");
    }
}
