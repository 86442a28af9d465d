package dev.cellgate.deploy.push;

import static dev.cellgate.deploy.push.Fixtures.bucketUrl;
import static dev.cellgate.deploy.push.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.ToolRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code using} / {@code await using} (explicit resource management, which workerd's V8 parses):
 * GraalJS 25 does not parse them, so a bundled project relies on esbuild lowering them to calls of
 * {@code [Symbol.dispose]()} (as Wrangler's esbuild does), and a module pushed as it is that holds
 * one is refused by name rather than with a bare syntax error.
 */
class UsingDeclarationsPushTest {
    @TempDir
    Path tmp;

    /** The main module evaluates in the push's GraalJS load: it throws unless the disposals ran, in order. */
    @Test
    void aBundledProjectsUsingDeclarationsRunTheirDisposalsInOrder() throws Exception {
        Esbuilds.assumeAvailable();
        write(tmp, "p/wrangler.json", "{ \"name\": \"using\", \"main\": \"src/index.js\", \"compatibility_date\": \"2025-04-01\" }");
        write(tmp, "p/src/index.js", """
                const log = [];
                function resource(name) { return { [Symbol.dispose]() { log.push('dispose ' + name); } }; }
                {
                  using a = resource('a');
                  using b = resource('b');
                  log.push('body');
                }
                try {
                  using c = resource('c');
                  throw new Error('boom');
                } catch (e) { log.push('caught ' + e.message); }
                if (log.join(',') !== 'body,dispose b,dispose a,dispose c,caught boom') {
                  throw new Error('using did not dispose as specified: ' + log.join(','));
                }
                async function later() {
                  await using d = { async [Symbol.asyncDispose]() { log.push('async dispose d'); } };
                  return 'later';
                }
                export default { async fetch() { return new Response(await later() + ' ' + log.join(',')); } };
                """);
        ToolRun r = ToolRun.run("push", tmp.resolve("p").toString(), "--bucket", bucketUrl(tmp.resolve("bucket")), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
    }

    @Test
    void aModulePushedAsItIsWithAUsingDeclarationIsRefusedByName() throws Exception {
        write(tmp, "p/wrangler.json", "{ \"name\": \"using\", \"main\": \"src/index.js\", \"compatibility_date\": \"2025-04-01\","
                + " \"no_bundle\": true }");
        write(tmp, "p/src/index.js", """
                export default { fetch() { using r = { [Symbol.dispose]() {} }; return new Response('ok'); } };
                """);
        ToolRun r = ToolRun.run("push", tmp.resolve("p").toString(), "--bucket", bucketUrl(tmp.resolve("bucket")), "--json");
        assertThat(r.code()).as(r.toString()).isNotZero();
        assertThat(r.toString()).contains("`using` declarations").contains("no_bundle");
    }
}
