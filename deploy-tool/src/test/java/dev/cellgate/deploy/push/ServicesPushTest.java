package dev.cellgate.deploy.push;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.deploy.bindings.Binding;
import dev.cellgate.core.deploy.bindings.ServiceBinding;
import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code services} at push: a binding to this Worker itself (its default export or a named
 * WorkerEntrypoint, with props) is pushed and recorded as a {@code service} binding; a binding to
 * any other Worker is refused naming the binding, the Worker and why (a fleet runs one Worker), as
 * is an entrypoint the bundle does not export; a refused push writes nothing.
 */
class ServicesPushTest {
    private static final String WORKER = """
            import { WorkerEntrypoint } from 'cloudflare:workers';
            export class Api extends WorkerEntrypoint { add(a, b) { return a + b; } }
            export default { async fetch(request, env) { return new Response(String(await env.API.add(1, 2))); } };
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
    void bindingsToThisWorkerArePushedAndRecorded() throws Exception {
        Path main = project("""
                { "name": "svc", "services": [
                    { "binding": "SELF", "service": "svc" },
                    { "binding": "API", "service": "svc", "entrypoint": "Api", "props": { "tenant": "t1" } } ] }
                """);
        ToolRun push = ToolRun.run("push", main.toString(), "--bucket", bucket(), "--json");
        assertThat(push.code()).as(push.toString()).isZero();
        try (dev.cellgate.core.spi.bucket.BucketStore s = new dev.cellgate.core.plugin.BucketStores(null).open(bucket(),
                dev.cellgate.core.spi.bucket.StoreOptions.none())) {
            Manifest m = new dev.cellgate.core.deploy.DeploymentStore(s).manifest(push.json().getString("deployment")).join();
            List<ServiceBinding> services = m.bindings().stream().filter(b -> b instanceof ServiceBinding).map(b -> (ServiceBinding) b).toList();
            assertThat(services).extracting(Binding::name, ServiceBinding::service, ServiceBinding::entrypoint)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("SELF", "svc", null), org.assertj.core.groups.Tuple.tuple("API", "svc", "Api"));
            assertThat(services.get(1).props().encode()).isEqualTo("{\"tenant\":\"t1\"}");
        }
    }

    @Test
    void aBindingToAnotherWorkerIsRefusedByName() throws Exception {
        Path main = project("""
                { "name": "svc", "services": [
                    { "binding": "SELF", "service": "svc" },
                    { "binding": "AUTH", "service": "auth-worker" },
                    { "binding": "BILLING", "service": "billing", "entrypoint": "Invoices" } ] }
                """);
        ToolRun push = ToolRun.run("push", main.toString(), "--bucket", bucket());
        assertThat(push.code()).as(push.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(push.err()).contains("services binding \"AUTH\" names Worker \"auth-worker\"; services binding \"BILLING\" names Worker"
                + " \"billing\": a cellgate fleet runs one Worker (\"svc\"), so only service bindings to that Worker itself (service:"
                + " \"svc\", its default export or a named WorkerEntrypoint) are implemented; bindings to other Workers are not");
        assertThat(Files.exists(tmp.resolve("bucket/deploy"))).as("a refused push writes nothing").isFalse();
    }

    @Test
    void theWorkerNameOfTheEnvironmentIsTheOneThatCounts() throws Exception {
        Path main = project("""
                { "name": "svc", "services": [ { "binding": "SELF", "service": "svc" } ],
                  "env": { "staging": { "services": [ { "binding": "SELF", "service": "svc" } ] } } }
                """);
        ToolRun push = ToolRun.run("push", main.toString(), "--env", "staging", "--bucket", bucket());
        assertThat(push.code()).as(push.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(push.err()).contains("services binding \"SELF\" names Worker \"svc\"").contains("runs one Worker (\"svc-staging\")");
    }

    @Test
    void anEntrypointTheBundleDoesNotExportIsRefused() throws Exception {
        Path main = project("{ \"name\": \"svc\", \"services\": [ { \"binding\": \"API\", \"service\": \"svc\", \"entrypoint\": \"Nope\" } ] }");
        ToolRun push = ToolRun.run("push", main.toString(), "--bucket", bucket());
        assertThat(push.code()).as(push.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(push.err()).contains("refers to the entrypoint \"Nope\", which index.js does not export");
        assertThat(Files.exists(tmp.resolve("bucket/deploy"))).isFalse();
    }

    @Test
    void malformedEntriesAreRefusedAndRemoteIsNoted() throws Exception {
        Path main = project("{ \"name\": \"svc\", \"services\": [ { \"binding\": \"A\", \"service\": \"svc\", \"environment\": \"production\" },"
                + " { \"binding\": \"B\" } ] }");
        ToolRun bad = ToolRun.run("push", main.toString(), "--bucket", bucket());
        assertThat(bad.code()).as(bad.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(bad.err()).contains("services key \"environment\" is not supported (binding, entrypoint, props, remote, service)");
        project("{ \"name\": \"svc\", \"services\": [ { \"binding\": \"API\", \"service\": \"svc\", \"entrypoint\": \"Api\", \"remote\": true } ] }");
        ToolRun remote = ToolRun.run("push", main.toString(), "--bucket", bucket());
        assertThat(remote.code()).as(remote.toString()).isZero();
        assertThat(remote.toString()).contains("note: services.remote has no effect on push");
    }
}
