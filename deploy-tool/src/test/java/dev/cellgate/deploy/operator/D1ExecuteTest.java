package dev.cellgate.deploy.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.RealNode;
import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.JsonArray;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy-tool d1 execute} against a real node: the CLI's SQL runs in the same cell as the
 * Worker's {@code env.DB} (each sees the other's rows), all statements of one call in one
 * transaction, and a failing statement applies nothing and says why.
 */
class D1ExecuteTest {
    static final String T = RealNode.TIMEOUT_MS;
    static final String WORKER = """
            export default {
              async fetch(request, env) {
                const url = new URL(request.url);
                if (url.pathname === '/add') {
                  await env.DB.prepare('INSERT INTO notes (body) VALUES (?)').bind(url.searchParams.get('body')).run();
                }
                const { results } = await env.DB.prepare('SELECT body FROM notes ORDER BY rowid').all();
                return Response.json(results.map((r) => r.body));
              },
            };
            """;

    @TempDir
    Path tmp;

    @Test
    void theCliAndTheWorkerShareTheDatabaseAndAFailingCallAppliesNothing() throws Exception {
        Path project = tmp.resolve("notes");
        Files.createDirectories(project);
        Files.writeString(project.resolve("index.js"), WORKER);
        Path config = project.resolve("wrangler.jsonc");
        Files.writeString(config, """
                { "name": "notes", "main": "index.js", "compatibility_date": "2025-04-01",
                  "d1_databases": [{ "binding": "DB", "database_name": "notes-db", "database_id": "00000000-d1d1-4000-8000-000000000001" }] }
                """);
        String bucket = "file://" + tmp.resolve("bucket");
        ToolRun push = ToolRun.run("push", project.toString(), "--bucket", bucket);
        assertThat(push.code()).as(push.toString()).isZero();
        try (RealNode n = RealNode.start(tmp, bucket, "d1-n1")) {
            n.awaitEvent("deployment.loaded");
            ToolRun unowned = ToolRun.run("d1", "execute", "DB", "--command", "SELECT 1", "--config", config.toString(), "--bucket", bucket);
            assertThat(unowned.code()).as(unowned.toString()).isEqualTo(ExitCodes.REFUSED);
            assertThat(unowned.err()).contains("--node");

            ToolRun create = ToolRun.run("d1", "execute", "DB", "--command",
                    "CREATE TABLE notes (body TEXT NOT NULL); INSERT INTO notes VALUES ('from-cli')", "--config", config.toString(),
                    "--bucket", bucket, "--node", "d1-n1", "--timeout-ms", T, "--json");
            assertThat(create.code()).as(create + "\n" + n.log()).isZero();
            assertThat(create.json().getJsonArray("results")).hasSize(2);
            assertThat(create.json().getJsonArray("results").getJsonObject(1).getJsonObject("meta").getInteger("changes")).isEqualTo(1);

            String origin = "http://" + n.listening.getString("public");
            assertThat(get(origin + "/add?body=from-worker")).isEqualTo("[\"from-cli\",\"from-worker\"]");

            // By the database_name this time, and with no --node: the cell's owner is in the bucket now.
            ToolRun select = ToolRun.run("d1", "execute", "notes-db", "--command", "SELECT body FROM notes ORDER BY rowid",
                    "--config", config.toString(), "--bucket", bucket, "--timeout-ms", T, "--json");
            assertThat(select.code()).as(select.toString()).isZero();
            JsonArray rows = select.json().getJsonArray("results").getJsonObject(0).getJsonArray("results");
            assertThat(rows.encode()).isEqualTo("[{\"body\":\"from-cli\"},{\"body\":\"from-worker\"}]");

            ToolRun failing = ToolRun.run("d1", "execute", "DB", "--command",
                    "INSERT INTO notes VALUES ('never'); INSERT INTO nope VALUES (1)", "--config", config.toString(),
                    "--bucket", bucket, "--timeout-ms", T);
            assertThat(failing.code()).as(failing.toString()).isEqualTo(ExitCodes.FAILED);
            assertThat(failing.err()).contains("D1_ERROR: no such table: nope").contains("nothing was applied");
            assertThat(get(origin + "/")).as("the failed call's first insert was rolled back").isEqualTo("[\"from-cli\",\"from-worker\"]");

            ToolRun missing = ToolRun.run("d1", "execute", "OTHER", "--command", "SELECT 1", "--config", config.toString(), "--bucket", bucket);
            assertThat(missing.code()).isEqualTo(ExitCodes.REFUSED);
            assertThat(missing.err()).contains("no D1 database OTHER").contains("[DB]");
        }
    }

    @Test
    void migrationsApplyInOrderOnceEachAndAFailingOneAppliesNothing() throws Exception {
        Path project = tmp.resolve("migrated");
        Path migrations = project.resolve("db/migrations");
        Files.createDirectories(migrations);
        Files.writeString(project.resolve("index.js"), WORKER);
        Path config = project.resolve("wrangler.jsonc");
        Files.writeString(config, """
                { "name": "migrated", "main": "index.js", "compatibility_date": "2025-04-01",
                  "d1_databases": [{ "binding": "DB", "database_name": "m-db", "database_id": "00000000-d1d1-4000-8000-000000000002",
                                     "migrations_dir": "db/migrations" }] }
                """);
        Files.writeString(migrations.resolve("0002_seed.sql"), "INSERT INTO notes (body) VALUES ('seeded');\n");
        Files.writeString(migrations.resolve("0001_init.sql"), "-- the table\nCREATE TABLE notes (body TEXT NOT NULL);\n");
        String bucket = "file://" + tmp.resolve("bucket");
        ToolRun push = ToolRun.run("push", project.toString(), "--bucket", bucket);
        assertThat(push.code()).as(push.toString()).isZero();
        try (RealNode n = RealNode.start(tmp, bucket, "d1-m1")) {
            n.awaitEvent("deployment.loaded");
            String[] common = {"--config", config.toString(), "--bucket", bucket, "--node", "d1-m1", "--timeout-ms", T, "--json"};
            ToolRun list = run("d1", "migrations", "list", "DB", common);
            assertThat(list.code()).as(list + "\n" + n.log()).isZero();
            assertThat(list.json().getJsonArray("unapplied").encode()).isEqualTo("[\"0001_init.sql\",\"0002_seed.sql\"]");

            ToolRun apply = run("d1", "migrations", "apply", "DB", common);
            assertThat(apply.code()).as(apply.toString()).isZero();
            assertThat(apply.json().getJsonArray("applied").encode()).isEqualTo("[\"0001_init.sql\",\"0002_seed.sql\"]");
            String origin = "http://" + n.listening.getString("public");
            assertThat(get(origin + "/")).isEqualTo("[\"seeded\"]");

            ToolRun again = run("d1", "migrations", "apply", "DB", common);
            assertThat(again.json().getJsonArray("applied").encode()).as("each migration is applied once").isEqualTo("[]");

            Files.writeString(migrations.resolve("0003_bad.sql"), "INSERT INTO notes (body) VALUES ('half');\nINSERT INTO nope VALUES (1);\n");
            ToolRun bad = run("d1", "migrations", "apply", "DB", common);
            assertThat(bad.code()).as(bad.toString()).isEqualTo(ExitCodes.FAILED);
            assertThat(bad.err()).contains("migration 0003_bad.sql failed, nothing of it was applied").contains("no such table: nope");
            assertThat(get(origin + "/")).as("the failed migration's first insert was rolled back").isEqualTo("[\"seeded\"]");
            ToolRun after = run("d1", "migrations", "list", "DB", common);
            assertThat(after.json().getJsonArray("unapplied").encode()).isEqualTo("[\"0003_bad.sql\"]");

            ToolRun table = run("d1", "execute", "DB", "--command", "SELECT name FROM d1_migrations ORDER BY id", common);
            assertThat(table.json().getJsonArray("results").getJsonObject(0).getJsonArray("results").encode())
                    .as("Wrangler's table, one row per applied file").isEqualTo("[{\"name\":\"0001_init.sql\"},{\"name\":\"0002_seed.sql\"}]");
        }
    }

    private static ToolRun run(String a, String b, String c, String d, String... rest) {
        String[] argv = new String[4 + rest.length];
        argv[0] = a;
        argv[1] = b;
        argv[2] = c;
        argv[3] = d;
        System.arraycopy(rest, 0, argv, 4, rest.length);
        return ToolRun.run(argv);
    }

    private static ToolRun run(String a, String b, String c, String d, String e, String[] rest) {
        String[] head = {a, b, c, d, e};
        String[] argv = new String[head.length + rest.length];
        System.arraycopy(head, 0, argv, 0, head.length);
        System.arraycopy(rest, 0, argv, head.length, rest.length);
        return ToolRun.run(argv);
    }

    static String get(String url) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
        return r.body();
    }
}
