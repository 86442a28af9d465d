package dev.cellgate.deploy.push;

import static dev.cellgate.deploy.push.Fixtures.CONFIG;
import static dev.cellgate.deploy.push.Fixtures.WORKER;
import static dev.cellgate.deploy.push.Fixtures.bucketUrl;
import static dev.cellgate.deploy.push.Fixtures.project;
import static dev.cellgate.deploy.push.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every refusal of {@code push}: exit code 3 (2 for bad usage), a message naming the cause, and
 * an untouched bucket (the bucket directory is never even created: validation runs before the
 * store is opened).
 */
class PushRefusalsTest {
    @TempDir
    Path tmp;

    Path bucket() {
        return tmp.resolve("bucket");
    }

    ToolRun push(Map<String, String> env, String... extra) {
        String[] argv = new String[extra.length + 3];
        argv[0] = "push";
        System.arraycopy(extra, 0, argv, 1, extra.length);
        argv[extra.length + 1] = "--bucket";
        argv[extra.length + 2] = bucketUrl(bucket());
        return ToolRun.run(env, argv);
    }

    ToolRun push(String... extra) {
        return push(Map.of(), extra);
    }

    @AfterEach
    void nothingWritten() {
        assertThat(Files.exists(bucket())).as("the bucket was not touched").isFalse();
    }

    static void refused(ToolRun r, String... fragments) {
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.REFUSED);
        for (String f : fragments) {
            assertThat(r.err()).as(r.toString()).contains(f);
        }
    }

    @Test
    void anUnsupportedWranglerKeyIsRefusedByName() throws Exception {
        project(tmp.resolve("p"), CONFIG.replace("\"name\": \"fixture\",", "\"name\": \"fixture\", \"vectorize\": [],"), WORKER);
        refused(push(tmp.resolve("p").toString()), "\"vectorize\"", "not supported");
    }

    @Test
    void anUnsupportedKeyInsideDurableObjectBindingsIsRefusedByName() throws Exception {
        project(tmp.resolve("p"), CONFIG.replace("\"class_name\": \"Counter\"", "\"class_name\": \"Counter\", \"script_name\": \"other\""), WORKER);
        refused(push(tmp.resolve("p").toString()), "\"script_name\"");
    }

    @Test
    void aDurableObjectBindingWhoseClassIsNotExportedIsRefused() throws Exception {
        project(tmp.resolve("p"), CONFIG.replace("\"class_name\": \"Counter\"", "\"class_name\": \"Missing\""), WORKER);
        refused(push(tmp.resolve("p").toString()), "COUNTER", "Missing", "does not export");
    }

    @Test
    void aBundleThatThrowsWhileLoadingIsRefusedWithTheJsError() throws Exception {
        Path b = write(tmp, "bundle.js", "const x = {};\nx.nope.boom();\nexport default { fetch() { return new Response('x'); } };\n");
        ToolRun r = push(b.toString());
        refused(r, "does not load in GraalJS", "TypeError", "boom", "bundle.js:2");
    }

    @Test
    void aBundleWithASyntaxErrorIsRefusedWithTheParserMessage() throws Exception {
        Path b = write(tmp, "bundle.js", "export default { fetch( { return 1; } };\n");
        refused(push(b.toString()), "does not load in GraalJS", "does not parse");
    }

    @Test
    void aBundleThatImportsAFileNoRuleTypesIsRefused() throws Exception {
        // .js beside a bundle is a module only with an ESModule rule (as with Wrangler's --no-bundle)
        write(tmp, "util.js", "export const a = 1;\n");
        Path b = write(tmp, "bundle.js", "import { a } from './util.js';\nexport default { fetch() { return new Response(String(a)); } };\n");
        // (a named import fails at link, before the missing module could throw workerd's "No such module")
        refused(push(b.toString()), "does not load in GraalJS", "./util.js");
    }

    @Test
    void aBundleThatIsNotUtf8IsRefused() throws Exception {
        Path b = tmp.resolve("bundle.js");
        Files.write(b, new byte[] {'/', '/', ' ', (byte) 0xC3, (byte) 0x28, '\n'});
        refused(push(b.toString()), "not UTF-8");
    }

    @Test
    void aProjectWithoutWranglerConfigIsRefused() throws Exception {
        write(tmp, "p/src/index.js", WORKER);
        refused(push(tmp.resolve("p").toString()), "has no wrangler.json, wrangler.jsonc or wrangler.toml");
        write(tmp, "p/wrangler.toml", "name = \"x\"\n");
        refused(push(tmp.resolve("p").toString()), "wrangler.toml has no \"main\"");
        write(tmp, "p/wrangler.toml", "name = \"x\"\n[vars\n");
        refused(push(tmp.resolve("p").toString()), "wrangler.toml is not valid TOML", "line 2");
    }

    @Test
    void aConfigThatIsNotJsonIsRefused() throws Exception {
        project(tmp.resolve("p"), "{ \"name\": \"x\", \"main\": ", WORKER);
        refused(push(tmp.resolve("p").toString()), "not valid JSON");
    }

    @Test
    void aMissingTargetConfigOrMainIsRefused() throws Exception {
        refused(push(tmp.resolve("nope.js").toString()), "does not exist");
        Path b = write(tmp, "bundle.js", WORKER);
        refused(push(b.toString(), "--config", tmp.resolve("none.jsonc").toString()), "does not exist");
        project(tmp.resolve("p"), CONFIG.replace("src/index.js", "src/absent.js"), WORKER);
        refused(push(tmp.resolve("p").toString()), "cannot read main module");
    }

    @Test
    void aBadWorkerNameIsRefused() throws Exception {
        Path b = write(tmp, "bundle.js", "export default { fetch() { return new Response('x'); } };\n");
        refused(push(b.toString(), "--name", "no spaces"), "Worker name 'no spaces'");
    }

    @Test
    void aProjectNeedingEsbuildWithoutEsbuildIsRefusedSayingHowToGetIt() throws Exception {
        Path p = project(tmp.resolve("p"), CONFIG, "import { greet } from './greet.js';\n" + WORKER);
        write(p, "src/greet.js", "export const greet = 'hi';\n");
        Files.createDirectories(tmp.resolve("no-tools"));
        ToolRun r = push(Map.of("PATH", "/usr/bin:/bin", "CELLGATE_NPM_TOOLS", tmp.resolve("no-tools").toString()), p.toString());
        refused(r, "esbuild is needed", ".ci/npm-tools.sh", "CELLD_ESBUILD", "npm install --save-dev esbuild");
        refused(push(Map.of("CELLD_ESBUILD", tmp.resolve("missing-esbuild").toString()), p.toString()),
                "CELLD_ESBUILD=", "is not an executable file");
    }

    @Test
    void anEsbuildErrorIsRefusedWithEsbuildsMessage() throws Exception {
        Esbuilds.assumeAvailable();
        Path p = project(tmp.resolve("p"), CONFIG, "import { greet } from './absent.js';\n" + WORKER);
        refused(push(Esbuilds.env(), p.toString()), "esbuild could not bundle", "absent.js");
    }

    @Test
    void aPluginThatIsNotAPf4jJarIsRefused() throws Exception {
        Path b = write(tmp, "bundle.js", "export default { fetch() { return new Response('x'); } };\n");
        Path notJar = write(tmp, "x.jar", "just text");
        refused(push(b.toString(), "--plugin", notJar.toString()), "is not a jar");
        Path plain = tmp.resolve("plain.jar");
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(plain), new java.util.jar.Manifest())) {
            out.putNextEntry(new java.util.zip.ZipEntry("a.txt"));
            out.write('a');
        }
        refused(push(b.toString(), "--plugin", plain.toString()), "not a PF4J plugin", "Plugin-Id");
        refused(push(b.toString(), "--plugin", tmp.resolve("absent.jar").toString()), "is not a file");
    }

    @Test
    void badUsageExitsTwo() throws Exception {
        Path b = write(tmp, "bundle.js", WORKER);
        assertThat(push(b.toString(), "--bogus").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(push().code()).isEqualTo(ExitCodes.USAGE);
        ToolRun r = push(b.toString(), "--progress", "sparkles");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--progress must be bar, lines or off");
        assertThat(ToolRun.run("frobnicate").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(ToolRun.run().code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void underJsonARefusalIsAlsoAJsonObjectOnStdout() throws Exception {
        project(tmp.resolve("p"), CONFIG.replace("\"name\": \"fixture\",", "\"name\": \"fixture\", \"vectorize\": [],"), WORKER);
        ToolRun r = push(tmp.resolve("p").toString(), "--json");
        assertThat(r.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.json().getBoolean("ok")).isFalse();
        assertThat(r.json().getInteger("exit_code")).isEqualTo(3);
        assertThat(r.json().getString("error")).contains("\"vectorize\"");
    }
}
