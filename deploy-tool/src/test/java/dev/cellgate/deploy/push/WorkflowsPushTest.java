package dev.cellgate.deploy.push;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.deploy.bindings.WorkflowBinding;
import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code workflows} at push: a Workflow whose class the bundle exports is pushed and recorded as a
 * {@code workflow} binding (bundled with {@code cloudflare:workflows} left to the engine); a class
 * the bundle does not export and a Workflow of another Worker are refused by name, and a refused
 * push writes nothing.
 */
class WorkflowsPushTest {
    private static final String WORKER = """
            import { WorkflowEntrypoint } from 'cloudflare:workers';
            import { NonRetryableError } from 'cloudflare:workflows';
            export class OrderFlow extends WorkflowEntrypoint {
              async run(event, step) {
                return step.do('check', async () => { if (!event.payload) throw new NonRetryableError('no order'); return event.payload; });
              }
            }
            export default { async fetch(request, env) { return Response.json((await env.ORDERS.create()).id); } };
            """;

    @TempDir
    Path tmp;

    private String bucket() {
        return "file://" + tmp.resolve("bucket").toAbsolutePath();
    }

    private Path project(String wranglerJson) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("p"));
        Files.writeString(dir.resolve("index.js"), WORKER);
        Files.writeString(dir.resolve("wrangler.json"), wranglerJson);
        return dir.resolve("index.js");
    }

    @Test
    void aWorkflowIsPushedAndRecorded() throws Exception {
        Path main = project("""
                { "name": "shop", "workflows": [ { "name": "orders", "binding": "ORDERS", "class_name": "OrderFlow", "script_name": "shop" } ] }
                """);
        ToolRun push = ToolRun.run("push", main.toString(), "--bucket", bucket(), "--json");
        assertThat(push.code()).as(push.toString()).isZero();
        try (dev.cellgate.core.spi.bucket.BucketStore s = new dev.cellgate.core.plugin.BucketStores(null).open(bucket(),
                dev.cellgate.core.spi.bucket.StoreOptions.none())) {
            Manifest m = new dev.cellgate.core.deploy.DeploymentStore(s).manifest(push.json().getString("deployment")).join();
            List<WorkflowBinding> flows = m.bindings().stream().filter(b -> b instanceof WorkflowBinding).map(b -> (WorkflowBinding) b).toList();
            assertThat(flows).containsExactly(new WorkflowBinding("ORDERS", "orders", "OrderFlow"));
        }
    }

    @Test
    void aClassTheBundleDoesNotExportIsRefused() throws Exception {
        Path main = project("""
                { "name": "shop", "workflows": [ { "name": "orders", "binding": "ORDERS", "class_name": "Missing" } ] }
                """);
        ToolRun push = ToolRun.run("push", main.toString(), "--bucket", bucket());
        assertThat(push.code()).as(push.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(push.err()).contains("Workflow binding ORDERS (workflow \"orders\") names class Missing, which the main module");
        assertThat(Files.exists(tmp.resolve("bucket/deploy"))).as("a refused push writes nothing").isFalse();
    }

    @Test
    void aWorkflowOfAnotherWorkerIsRefused() throws Exception {
        Path main = project("""
                { "name": "shop", "workflows": [ { "name": "orders", "binding": "ORDERS", "class_name": "OrderFlow", "script_name": "billing" } ] }
                """);
        ToolRun push = ToolRun.run("push", main.toString(), "--bucket", bucket());
        assertThat(push.code()).as(push.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(push.err()).contains("script_name \"billing\" names another Worker");
        assertThat(Files.exists(tmp.resolve("bucket/deploy"))).as("a refused push writes nothing").isFalse();
    }
}
