package dev.cellgate.deploy.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.RealNode;
import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy-tool d1 restore} and {@code cells restore} against a real node (SPEC §22): a dry run
 * names the state it would bring back and changes nothing; the restore brings it back; the undo
 * bookmark it prints brings the later state back again.
 */
class RestoreCommandTest {
    static final String T = RealNode.TIMEOUT_MS;
    @TempDir
    Path tmp;

    @Test
    void aDryRunShowsTheStateTheRestoreBringsBackAndTheUndoReturnsToTheLaterOne() throws Exception {
        Path project = tmp.resolve("notes");
        Files.createDirectories(project);
        Files.writeString(project.resolve("index.js"), D1ExecuteTest.WORKER); // the same notes Worker
        Path config = project.resolve("wrangler.jsonc");
        Files.writeString(config, """
                { "name": "notes", "main": "index.js", "compatibility_date": "2025-04-01",
                  "d1_databases": [{ "binding": "DB", "database_name": "notes-db", "database_id": "00000000-d1d1-4000-8000-000000000003" }] }
                """);
        String bucket = "file://" + tmp.resolve("bucket");
        ToolRun push = ToolRun.run("push", project.toString(), "--bucket", bucket);
        assertThat(push.code()).as(push.toString()).isZero();
        try (RealNode n = RealNode.start(tmp, bucket, "pitr-n1")) {
            n.awaitEvent("deployment.loaded");
            ToolRun create = ToolRun.run("d1", "execute", "DB", "--command", "CREATE TABLE notes (body TEXT NOT NULL)",
                    "--config", config.toString(), "--bucket", bucket, "--node", "pitr-n1", "--timeout-ms", T);
            assertThat(create.code()).as(create + "\n" + n.log()).isZero();
            String origin = "http://" + n.listening.getString("public");
            get(origin + "/add?body=a");
            get(origin + "/add?body=b");
            long then = System.currentTimeMillis();
            Thread.sleep(50);
            assertThat(get(origin + "/add?body=c")).isEqualTo("[\"a\",\"b\",\"c\"]");

            ToolRun dry = ToolRun.run("d1", "restore", "DB", "--to", Long.toString(then), "--dry-run", "--config", config.toString(),
                    "--bucket", bucket, "--timeout-ms", T, "--json");
            assertThat(dry.code()).as(dry + "\n" + n.log()).isZero();
            JsonObject d = dry.json();
            assertThat(d.getBoolean("dry_run")).isTrue();
            assertThat(d.getJsonObject("tables").getLong("notes")).isEqualTo(2);
            assertThat(d.getString("bookmark")).matches("[0-9a-f]{16}-[0-9a-f]{16}-[0-9a-f]{16}");
            assertThat(get(origin + "/")).as("a dry run changes nothing").isEqualTo("[\"a\",\"b\",\"c\"]");
            ToolRun dryText = ToolRun.run("d1", "restore", "DB", "--to", java.time.Instant.ofEpochMilli(then).toString(), "--dry-run",
                    "--config", config.toString(), "--bucket", bucket, "--timeout-ms", T);
            assertThat(dryText.out()).contains("dry run: would restore D1 database notes-db to bookmark " + d.getString("bookmark"))
                    .contains("table notes: 2 row(s)");

            ToolRun restore = ToolRun.run("d1", "restore", "DB", "--to", d.getString("bookmark"), "--config", config.toString(),
                    "--bucket", bucket, "--timeout-ms", T, "--json");
            assertThat(restore.code()).as(restore + "\n" + n.log()).isZero();
            assertThat(get(origin + "/")).isEqualTo("[\"a\",\"b\"]");

            String scope = restore.json().getString("scope");
            ToolRun undo = ToolRun.run("cells", "restore", scope, "--to", restore.json().getString("undo"), "--bucket", bucket,
                    "--timeout-ms", T);
            assertThat(undo.code()).as(undo + "\n" + n.log()).isZero();
            assertThat(undo.out()).contains("restored cell " + scope).contains("undo with: --to ");
            assertThat(get(origin + "/")).isEqualTo("[\"a\",\"b\",\"c\"]");

            ToolRun bad = ToolRun.run("cells", "restore", scope, "--to", "yesterday", "--bucket", bucket);
            assertThat(bad.code()).isEqualTo(ExitCodes.USAGE);
            assertThat(bad.err()).contains("not a bookmark").contains("ISO-8601");
            ToolRun old = ToolRun.run("cells", "restore", scope, "--to", "1000", "--bucket", bucket, "--timeout-ms", T);
            assertThat(old.code()).isEqualTo(ExitCodes.FAILED);
            assertThat(old.err()).contains("before the retention window");
        }
    }

    private static String get(String url) throws Exception {
        return D1ExecuteTest.get(url);
    }
}
