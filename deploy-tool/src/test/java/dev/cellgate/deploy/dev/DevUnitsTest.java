package dev.cellgate.deploy.dev;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parts of {@code dev} that need no node: its refusals, the node's environment, what it prints, the watcher. */
class DevUnitsTest {
    @TempDir
    Path tmp;

    @Test
    void whatDevDoesNotTakeIsRefusedByNameBeforeAnythingStarts() throws Exception {
        Path project = Files.createDirectories(tmp.resolve("p"));
        Files.writeString(project.resolve("wrangler.json"), "{\"name\":\"p\",\"main\":\"i.js\"}");
        ToolRun bucket = ToolRun.run("dev", project.toString(), "--bucket", "file:///elsewhere");
        assertThat(bucket.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(bucket.err()).contains("--bucket does not apply").contains("push");
        ToolRun json = ToolRun.run("dev", project.toString(), "--json");
        assertThat(json.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(json.err()).contains("--json does not apply");
        ToolRun port = ToolRun.run("dev", project.toString(), "--port", "70000");
        assertThat(port.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(port.err()).contains("--port must be a port number");
        Files.writeString(project.resolve(".dev.vars"), "TOKEN=x\n");
        ToolRun vars = ToolRun.run("dev", project.toString());
        assertThat(vars.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(vars.err()).contains(".dev.vars").contains("does not read").contains("deploy-tool secret put NAME --bucket file://");
        assertThat(project.resolve(".cellgate")).doesNotExist();
        ToolRun missing = ToolRun.run("dev", tmp.resolve("nope").toString());
        assertThat(missing.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(missing.err()).contains("is not a directory");
    }

    @Test
    void theNodeGetsDevsSettingsWhateverTheCallerSetAndKeepsTheRest() {
        Map<String, String> env = DevNode.nodeEnv("file:///p/.cellgate/dev/bucket", Path.of("/p/.cellgate/dev"), Map.of(
                "CELLD_BUCKET", "s3://prod", "CELLD_ADDR", "0.0.0.0:80", "CELLD_INTERNAL_ADDR", "0.0.0.0:9090",
                "CELLD_ADVERTISE", "10.0.0.1:9090", "CELLD_PLUGINS_DIR", "/x", "AWS_REGION", "eu-west-1",
                "CELLD_VAR_GREETING", "hi", "CELLD_CPU_MS", "5000", "DEPLOY_TOOL_STDERR_TTY", "1", "PATH", "/usr/bin"));
        assertThat(env).containsEntry("CELLD_BUCKET", "file:///p/.cellgate/dev/bucket").containsEntry("CELLD_ADDR", "127.0.0.1:0")
                .containsEntry("CELLD_INTERNAL_ADDR", "127.0.0.1:0").containsEntry("CELLD_NODE", "dev")
                .containsEntry("CELLD_WATCH", "/p/.cellgate/dev/node").containsEntry("CELLD_LOG_FORMAT", "json")
                .containsEntry("CELLD_VAR_GREETING", "hi").containsEntry("CELLD_CPU_MS", "5000").containsEntry("PATH", "/usr/bin")
                .doesNotContainKeys("CELLD_ADVERTISE", "CELLD_PLUGINS_DIR", "AWS_REGION", "DEPLOY_TOOL_STDERR_TTY");
    }

    @Test
    void printsConsoleLinesRequestsAndProblemsWithColourOnlyWhenAsked() {
        ByteArrayOutputStream plainBytes = new ByteArrayOutputStream();
        DevConsole plain = new DevConsole(new PrintStream(plainBytes, true, StandardCharsets.UTF_8), false);
        assertThat(plain.nodeLine(new JsonObject().put("event", "js.console").put("level", "WARN").put("message", "careful"))).isTrue();
        assertThat(plain.nodeLine(new JsonObject().put("event", "cell.activated").put("level", "INFO"))).isFalse();
        assertThat(plain.nodeLine(new JsonObject().put("event", "deployment.load_failed").put("level", "ERROR")
                .put("error", "SyntaxError: x"))).isTrue();
        plain.request("GET", "/a?b=1", 404, 12, null);
        String text = plainBytes.toString(StandardCharsets.UTF_8);
        assertThat(text).contains(" warn careful").contains("keeps serving the previous one: SyntaxError: x")
                .contains("GET /a?b=1 404 12 ms").doesNotContain("cell.activated").doesNotContain("\u001b[");

        ByteArrayOutputStream colourBytes = new ByteArrayOutputStream();
        new DevConsole(new PrintStream(colourBytes, true, StandardCharsets.UTF_8), true).request("GET", "/", 500, 1, null);
        assertThat(colourBytes.toString(StandardCharsets.UTF_8)).contains("\u001b[31m500");

        assertThat(DevConsole.colourWanted("1", null, "xterm")).isTrue();
        assertThat(DevConsole.colourWanted("0", null, "xterm")).isFalse();
        assertThat(DevConsole.colourWanted("1", "1", "xterm")).isFalse();
        assertThat(DevConsole.colourWanted("1", null, "dumb")).isFalse();
    }

    @Test
    void aSaveIsSeenOnceQuietAndSkippedDirectoriesAreNot() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("w"));
        Path src = Files.createDirectories(root.resolve("src"));
        Files.createDirectories(root.resolve(".cellgate"));
        Files.createDirectories(root.resolve("node_modules"));
        Files.writeString(src.resolve("a.js"), "1");
        SourceWatch w = new SourceWatch(List.of(root));

        CompletableFuture<Integer> seen = CompletableFuture.supplyAsync(() -> {
            try {
                return w.awaitChange();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Files.writeString(root.resolve(".cellgate/state"), "x");
        Files.writeString(root.resolve("node_modules/dep.js"), "x");
        Thread.sleep(300);
        assertThat(seen).as("changes under skipped directories").isNotDone();
        Files.writeString(src.resolve("a.js"), "22");
        Files.writeString(src.resolve("b.js"), "new");
        assertThat(seen.get(5, TimeUnit.SECONDS)).as("two files, one change").isEqualTo(2);
    }
}
