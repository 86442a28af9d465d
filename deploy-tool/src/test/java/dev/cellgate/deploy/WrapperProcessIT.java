package dev.cellgate.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.records.CurrentDeployment;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tool as users run it: the {@code deploy-tool/deploy-tool} wrapper over the packaged jar
 * (built by {@code mvn package}), in its own JVM, with output through real pipes.
 */
class WrapperProcessIT {
    static final Path WRAPPER = ToolRun.repoRoot().resolve("deploy-tool/deploy-tool");

    @TempDir
    Path tmp;

    record Proc(int code, String out, String err) {
        JsonObject json() {
            return new JsonObject(out.strip());
        }
    }

    Proc finish(Process p) throws Exception {
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        return new Proc(p.exitValue(), readOut(p), err);
    }

    private final java.util.Map<Process, Path> outputs = new java.util.HashMap<>();

    private String readOut(Process p) throws IOException {
        return Files.readString(outputs.get(p));
    }

    Proc run(String... args) throws Exception {
        Process p = launch(args);
        return finish(p);
    }

    Process launch(String... args) throws IOException {
        Path out = tmp.resolve("out-" + System.nanoTime() + ".txt");
        assertThat(ToolRun.repoRoot().resolve("deploy-tool/target/deploy-tool.jar")).as("mvn package built the jar").exists();
        List<String> cmd = new ArrayList<>(List.of(WRAPPER.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(ToolRun.repoRoot().toFile()).redirectOutput(out.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("CELLD_") || k.equals("DEPLOY_TOOL_STDERR_TTY"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("CELLD_FILE_FSYNC", "0");
        Process p = pb.start();
        outputs.put(p, out);
        return p;
    }

    String bucket() {
        return "file://" + tmp.resolve("bucket");
    }

    @Test
    void helpPushListAndExitCodesThroughTheWrapper() throws Exception {
        Proc help = run("--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("Usage: deploy-tool <command>").contains("Exit codes:");

        Proc push = run("push", "examples/counter", "--bucket", bucket());
        assertThat(push.code()).as(push.err()).isZero();
        assertThat(push.out()).startsWith("deployed counter as d-");
        assertThat(push.err()).as("stderr is a pipe: lines, no bar").contains("[1/1] uploaded index.js").doesNotContain("\r");
        assertThat(push.err()).as("no JVM warnings (Unsafe, native access)").doesNotContain("WARNING");

        Proc list = run("list", "--bucket", bucket(), "--json");
        assertThat(list.code()).isZero();
        assertThat(list.json().getInteger("total")).isEqualTo(1);

        Proc noPrevious = run("rollback", "--bucket", bucket(), "--json");
        assertThat(noPrevious.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(noPrevious.json().getBoolean("ok")).isFalse();

        assertThat(run("push", "--nope").code()).isEqualTo(ExitCodes.USAGE);
        Proc diagnose = run("diagnose", "--bucket", bucket(), "--read-only");
        assertThat(diagnose.code()).as(diagnose.out() + diagnose.err()).isZero();
        assertThat(diagnose.out()).contains("current d-").contains("(counter)");
    }

    @Test
    void twoConcurrentPushProcessesBothLandInHistoryWithOneCurrent() throws Exception {
        Path a = tmp.resolve("a.js");
        Path b = tmp.resolve("b.js");
        Files.writeString(a, "export default { fetch() { return new Response('a'); } };\n");
        Files.writeString(b, "export default { fetch() { return new Response('b'); } };\n");
        Process pa = launch("push", a.toString(), "--bucket", bucket(), "--json");
        Process pb = launch("push", b.toString(), "--bucket", bucket(), "--json");
        Proc ra = finish(pa);
        Proc rb = finish(pb);
        assertThat(ra.code()).as(ra.err()).isZero();
        assertThat(rb.code()).as(rb.err()).isZero();
        String ida = ra.json().getString("deployment");
        String idb = rb.json().getString("deployment");
        try (BucketStore s = new BucketStores(null).open(bucket(), StoreOptions.none())) {
            DeploymentStore d = new DeploymentStore(s);
            assertThat(d.list().join()).containsExactlyInAnyOrder(ida, idb);
            CurrentDeployment cur = d.current().join().orElseThrow().value();
            // whichever moved current last names the other as previous; the other replaced nothing
            String other = cur.deployment().equals(ida) ? idb : ida;
            assertThat(cur.deployment()).isIn(ida, idb);
            assertThat(cur.previous()).isEqualTo(other);
            JsonObject first = cur.deployment().equals(ida) ? rb.json() : ra.json();
            assertThat(first.getString("previous")).isNull();
        }
    }
}
