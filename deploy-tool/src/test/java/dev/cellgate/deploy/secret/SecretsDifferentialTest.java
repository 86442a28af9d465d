package dev.cellgate.deploy.secret;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.NpmTools;
import dev.cellgate.deploy.RealNode;
import dev.cellgate.deploy.ToolRun;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same bundle on workerd (miniflare, the reference, where a secret is a text binding) and on a
 * real cellgate node ({@code java -jar}) whose secrets were set with {@code deploy-tool secret put}:
 * what the Worker sees of {@code env.MY_SECRET} — its type, value, property descriptor, place in
 * {@code JSON.stringify(env)} and {@code Object.keys(env)}, {@code process.env} under
 * {@code nodejs_compat} — must be the same on both.
 */
class SecretsDifferentialTest {
    static final String MY_SECRET = "s3cr3t ✓ ünïcode \"quoted\" \\ back";
    static final String OTHER_SECRET = "other";
    static final List<String> PATHS = List.of("/typeof", "/value", "/other", "/json", "/keys", "/descriptor", "/in", "/missing",
            "/process", "/length", "/frozen");
    static final String WORKER = """
            import process from "node:process";
            export default {
              async fetch(req, env) {
                const answers = {
                  "/typeof": () => typeof env.MY_SECRET,
                  "/value": () => env.MY_SECRET,
                  "/other": () => env.OTHER_SECRET,
                  "/json": () => JSON.stringify(env),
                  "/keys": () => JSON.stringify(Object.keys(env)),
                  "/descriptor": () => JSON.stringify(Object.getOwnPropertyDescriptor(env, "MY_SECRET")),
                  "/in": () => String("MY_SECRET" in env) + " " + Object.prototype.hasOwnProperty.call(env, "MY_SECRET"),
                  "/missing": () => typeof env.NOT_SET,
                  "/process": () => JSON.stringify([process.env.MY_SECRET, process.env.OTHER_SECRET, process.env.GREETING]),
                  "/length": () => String(env.MY_SECRET.length),
                  "/frozen": () => String(Object.isFrozen(env)) + " " + String(Object.isExtensible(env)),
                };
                const answer = answers[new URL(req.url).pathname];
                return answer ? new Response(answer()) : new Response("no route", { status: 404 });
              }
            };
            """;

    @TempDir
    Path tmp;

    static Path miniflare() {
        return NpmTools.require("node_modules/miniflare/dist/src/index.js", "miniflare");
    }

    /** Every path's {@code "<status> <body>"} on workerd. */
    JsonObject onWorkerd(Path entry) throws Exception {
        Path script = tmp.resolve("miniflare-env.mjs");
        try (InputStream in = SecretsDifferentialTest.class.getResourceAsStream("/secret/miniflare-env.mjs")) {
            Files.write(script, in.readAllBytes());
        }
        Path job = tmp.resolve("job.json");
        // the vars first, then the secrets: the order of a Worker's text bindings in its upload
        Files.writeString(job, new JsonObject().put("script", WORKER).put("compatibilityDate", "2025-04-01")
                .put("compatibilityFlags", new JsonArray().add("nodejs_compat"))
                .put("bindings", new JsonObject().put("GREETING", "hi").put("MY_SECRET", MY_SECRET).put("OTHER_SECRET", OTHER_SECRET))
                .put("paths", new JsonArray(PATHS)).encode());
        Path out = tmp.resolve("workerd.json");
        Process p = new ProcessBuilder("node", script.toString(), entry.toUri().toString(), job.toString(), out.toString())
                .redirectErrorStream(true).redirectOutput(tmp.resolve("miniflare.log").toFile()).start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("miniflare finished").isTrue();
        assertThat(p.exitValue()).as(Files.readString(tmp.resolve("miniflare.log"))).isZero();
        return new JsonObject(Files.readString(out));
    }

    static void awaitAnswer(HttpClient http, RealNode node, String path, String want) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String got = null;
        while (System.nanoTime() < end) {
            got = http.send(HttpRequest.newBuilder(URI.create("http://" + node.listening.getString("public") + path))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString()).body();
            if (want.equals(got)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(path + " still answers " + got + ", not " + want + "\n" + node.log());
    }

    @Test
    void aWorkerSeesItsSecretsOnEnvAsOnWorkerd() throws Exception {
        Path entry = miniflare();
        Path bundle = tmp.resolve("p/worker.js");
        Files.createDirectories(bundle.getParent());
        Files.writeString(bundle, WORKER);
        Path cfg = tmp.resolve("p/wrangler.json");
        Files.writeString(cfg, """
                { "name": "diff", "main": "worker.js", "compatibility_date": "2025-04-01",
                  "compatibility_flags": ["nodejs_compat"], "vars": { "GREETING": "hi" },
                  "secrets": { "required": ["MY_SECRET"] } }
                """);
        String bucket = "file://" + tmp.resolve("bucket").toAbsolutePath();
        for (String[] s : new String[][] {{"MY_SECRET", MY_SECRET}, {"OTHER_SECRET", OTHER_SECRET}}) {
            ToolRun put = ToolRun.piped(s[1], "secret", "put", s[0], "--config", cfg.toString(), "--bucket", bucket);
            assertThat(put.code()).as(put.toString()).isZero();
        }
        ToolRun push = ToolRun.run("push", bundle.toString(), "--bucket", bucket);
        assertThat(push.code()).as(push.toString()).isZero();

        JsonObject workerd = onWorkerd(entry);
        try (RealNode node = RealNode.start(tmp, bucket, "secrets-diff")) {
            node.awaitEvent("deployment.loaded");
            HttpClient http = HttpClient.newHttpClient();
            for (String path : PATHS) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + node.listening.getString("public") + path))
                        .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
                JsonObject want = workerd.getJsonObject(path);
                assertThat(r.statusCode() + " " + r.body()).as(path).isEqualTo(want.getInteger("status") + " " + want.getString("body"));
            }
            // the CLI's changes reach the running node without a push
            ToolRun put = ToolRun.piped("rotated", "secret", "put", "MY_SECRET", "--config", cfg.toString(), "--bucket", bucket);
            assertThat(put.code()).as(put.toString()).isZero();
            awaitAnswer(http, node, "/value", "rotated");
            ToolRun del = ToolRun.piped("", "secret", "delete", "MY_SECRET", "--config", cfg.toString(), "--bucket", bucket);
            assertThat(del.code()).as(del.toString()).isZero();
            awaitAnswer(http, node, "/typeof", "undefined");
            assertThat(node.log()).as("the node never logs a value").doesNotContain(MY_SECRET).doesNotContain("ünïcode")
                    .doesNotContain("rotated");
        }
        assertThat(workerd.getJsonObject("/value").getString("body")).as("the reference itself").isEqualTo(MY_SECRET);
    }
}
