package dev.cellgate.js.graal.modules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cellgate.core.spi.js.BundleModule;
import dev.cellgate.core.spi.js.ModuleType;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.instance.JsException;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bundle that ships its source map (esbuild --sourcemap, as deploy-tool builds it with
 * upload_source_maps): {@code err.stack} and the stack of a logged exception name the TypeScript
 * source and line; the same bundle without its map names the bundle.
 */
class SourceMapsTest {
    static TestEngine engine;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() {
        engine = new TestEngine();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    static final String DEEP = """
            // src/lib/deep.ts: the throw is on line 12
            export interface Options {
              reason: string;
            }

            function describe(o: Options): string {
              return 'deep: ' + o.reason;
            }

            export function deep(o: Options): never {
              const message: string = describe(o);
              throw new Error(message);
            }
            """;

    static final String INDEX = """
            import { deep } from './lib/deep';

            export default {
              async fetch(request: Request): Promise<Response> {
                if (new URL(request.url).pathname === '/uncaught') deep({ reason: 'uncaught' });
                try {
                  deep({ reason: 'caught' });
                } catch (e) {
                  return new Response((e as Error).stack);
                }
                return new Response('unreachable');
              },
            };
            """;

    /** With nodejs_compat: a node: module's coded error (its class behind the mapped Error constructors) beside a mapped stack. */
    static final String INDEX_NODE = """
            import { Buffer } from 'node:buffer';
            import { deep } from './lib/deep';

            export default {
              async fetch(request: Request): Promise<Response> {
                let coded = '';
                try { Buffer.alloc(1).readUInt32LE(0); } catch (e) { coded = [(e as any).code, e instanceof RangeError, (e as Error).name].join(' '); }
                try {
                  deep({ reason: 'caught' });
                } catch (e) {
                  return new Response(coded + '\\n' + (e as Error).stack);
                }
                return new Response('unreachable');
              },
            };
            """;

    Map<String, BundleModule> build(boolean withMap) throws Exception {
        return build(withMap, INDEX);
    }

    /** esbuild's bundle and map, the map's sources named from the project directory as deploy-tool names them. */
    Map<String, BundleModule> build(boolean withMap, String index) throws Exception {
        Path esbuild = npmTool("node_modules/.bin/esbuild");
        Files.createDirectories(tmp.resolve("src/lib"));
        Files.writeString(tmp.resolve("src/lib/deep.ts"), DEEP);
        Files.writeString(tmp.resolve("src/index.ts"), index);
        Process p = new ProcessBuilder(esbuild.toString(), "src/index.ts", "--bundle", "--format=esm", "--platform=neutral",
                "--outdir=out", "--entry-names=index", "--sourcemap", "--external:node:*", "--log-level=warning").directory(tmp.toFile())
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as(log).isTrue();
        Map<String, BundleModule> files = new LinkedHashMap<>();
        files.put("index.js", new BundleModule(ModuleType.ES_MODULE, Files.readAllBytes(tmp.resolve("out/index.js"))));
        if (withMap) {
            JsonObject map = new JsonObject(Files.readString(tmp.resolve("out/index.js.map")));
            JsonArray sources = new JsonArray();
            map.getJsonArray("sources").forEach(s -> sources.add(tmp.relativize(tmp.resolve("out").resolve((String) s).normalize())
                    .toString()));
            map.put("sources", sources);
            files.put("index.js.map", new BundleModule(ModuleType.SOURCE_MAP, map.encode().getBytes(StandardCharsets.UTF_8)));
        }
        return files;
    }

    static Path npmTool(String rel) {
        String env = System.getenv("CELLGATE_NPM_TOOLS");
        Path root = env != null ? Path.of(env) : null;
        for (Path d = Path.of("").toAbsolutePath(); root == null && d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve(".ci/npm-tools.sh"))) {
                root = d.resolve(".ci/npm-tools");
            }
        }
        Path tool = root == null ? null : root.resolve(rel);
        if (tool == null || !Files.isExecutable(tool)) {
            if ("true".equals(System.getenv("CI"))) {
                fail("esbuild is not installed: run .ci/npm-tools.sh");
            }
            org.junit.jupiter.api.Assumptions.abort("esbuild is not installed: run .ci/npm-tools.sh");
        }
        return tool;
    }

    static ScriptBundle bundle(Map<String, BundleModule> files) {
        return bundle(files, List.of());
    }

    static ScriptBundle bundle(Map<String, BundleModule> files, List<String> flags) {
        return ScriptBundle.of("maps", "maps", "index.js", files, Map.of(), Map.of(), "2025-01-01", flags);
    }

    @Test
    void errStackAndTheLoggedStackNameTheSourceFileAndLine() throws Exception {
        try (TestWorker w = engine.worker(bundle(build(true)))) {
            String stack = w.text("http://x.test/");
            assertThat(stack).startsWith("Error: deep: caught\n").contains("(src/lib/deep.ts:12:").contains("src/index.ts:7:")
                    .doesNotContain("/bundle/index.js").doesNotContain("source-maps.js");
            try {
                w.get("http://x.test/uncaught");
                fail("the handler threw");
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(JsException.class);
                assertThat(((JsException) e.getCause()).jsStack()).contains("src/lib/deep.ts:12:").contains("src/index.ts:5:");
            }
        }
    }

    @Test
    void aNodejsCompatWorkerKeepsNodesErrorClassesUnderMappedStacks() throws Exception {
        try (TestWorker w = engine.worker(bundle(build(true, INDEX_NODE), List.of("nodejs_compat")))) {
            String body = w.text("http://x.test/");
            assertThat(body).startsWith("ERR_BUFFER_OUT_OF_BOUNDS true RangeError\nError: deep: caught\n").contains("(src/lib/deep.ts:12:")
                    .contains("src/index.ts:");
        }
    }

    @Test
    void withoutItsMapTheStackNamesTheBundle() throws Exception {
        try (TestWorker w = engine.worker(bundle(build(false)))) {
            assertThat(w.text("http://x.test/")).contains("/bundle/index.js:").doesNotContain("deep.ts");
        }
    }
}
