package dev.cellgate.deploy.secret;

import static dev.cellgate.deploy.push.Fixtures.bucketUrl;
import static dev.cellgate.deploy.push.Fixtures.write;
import static dev.cellgate.deploy.push.Fixtures.openBucket;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.deploy.bindings.SecretTextBinding;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy-tool secret put|list|delete|bulk} on a real (file) bucket: each change becomes the
 * current deployment at once, values are stored under {@code secrets/} and nowhere else (not in
 * manifests, not in any output), and every bad input is refused with nothing stored.
 */
class SecretCommandTest {
    static final String VALUE = "s3cr3t-Välue=42";

    @TempDir
    Path tmp;

    Path cfg;

    String bucket() {
        return bucketUrl(tmp.resolve("bucket"));
    }

    @BeforeEach
    void project() throws Exception {
        write(tmp, "p/index.js", "export default { fetch(req, env) { return new Response(String(env.API_TOKEN)); } };\n");
        cfg = write(tmp, "p/wrangler.json", "{ \"name\": \"app\", \"main\": \"index.js\", \"vars\": { \"GREETING\": \"hi\" } }");
    }

    String push() {
        ToolRun r = ToolRun.run("push", tmp.resolve("p/index.js").toString(), "--bucket", bucket(), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        return r.json().getString("deployment");
    }

    ToolRun secret(String stdin, String... args) {
        List<String> argv = new ArrayList<>(List.of("secret"));
        argv.addAll(List.of(args));
        argv.addAll(List.of("--config", cfg.toString(), "--bucket", bucket()));
        return ToolRun.piped(stdin, argv.toArray(String[]::new));
    }

    Manifest current() {
        try (BucketStore s = openBucket(bucket())) {
            DeploymentStore d = new DeploymentStore(s);
            return d.manifest(d.current().join().orElseThrow().value().deployment()).join();
        }
    }

    /** Every bucket object that holds {@code text}, by key. */
    List<String> holding(String text) throws Exception {
        return ToolRun.snapshot(tmp.resolve("bucket")).entrySet().stream()
                .filter(e -> new String(e.getValue().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
                        java.nio.charset.StandardCharsets.UTF_8).contains(text))
                .map(Map.Entry::getKey).toList();
    }

    static void neverShows(ToolRun r) {
        assertThat(r.out()).doesNotContain(VALUE);
        assertThat(r.err()).doesNotContain(VALUE);
    }

    @Test
    void putMakesTheCurrentCodeWithTheSecretCurrentAtOnceAndTheValueIsOnlyUnderSecrets() throws Exception {
        String pushed = push();
        ToolRun put = secret(VALUE + "\n", "put", "API_TOKEN", "--json");
        assertThat(put.code()).as(put.toString()).isZero();
        neverShows(put);
        JsonObject j = put.json();
        assertThat(j.getString("worker")).isEqualTo("app");
        assertThat(j.getString("previous")).isEqualTo(pushed);
        Manifest m = current();
        assertThat(m.id()).isEqualTo(j.getString("deployment")).isNotEqualTo(pushed);
        assertThat(m.secretNames()).containsExactly("API_TOKEN");
        assertThat(m.vars()).containsExactly(Map.entry("GREETING", "hi"));
        assertThat(m.modules()).isEqualTo(currentOf(pushed).modules());
        try (BucketStore s = openBucket(bucket())) {
            assertThat(new DeploymentStore(s).secretValues(m).join()).as("trailing newline trimmed, as wrangler does")
                    .containsExactly(Map.entry("API_TOKEN", VALUE));
        }
        assertThat(holding(VALUE)).as("objects holding the value").hasSize(1).allMatch(k -> k.startsWith("secrets/app/API_TOKEN/"));

        ToolRun list = secret("", "list");
        assertThat(list.code()).as(list.toString()).isZero();
        assertThat(new JsonArray(list.out())).isEqualTo(new JsonArray().add(new JsonObject().put("name", "API_TOKEN").put("type", "secret_text")));
        neverShows(list);
        ToolRun history = ToolRun.run("list", "--bucket", bucket(), "--json");
        assertThat(history.code()).isZero();
        neverShows(history);

        ToolRun text = secret("second value", "put", "API_TOKEN");
        assertThat(text.out()).contains("set API_TOKEN of app; ").contains("is current: nodes switch to it without a push");
        assertThat(text.out()).doesNotContain("second value");

        ToolRun del = secret("", "delete", "API_TOKEN");
        assertThat(del.code()).as(del.toString()).isZero();
        assertThat(del.out()).contains("deleted API_TOKEN of app (2 stored version(s))");
        assertThat(current().secretNames()).isEmpty();
        assertThat(current().vars()).containsExactly(Map.entry("GREETING", "hi"));
        assertThat(holding(VALUE)).as("every version is gone").isEmpty();
        assertThat(new JsonArray(secret("", "list").out())).isEmpty();
    }

    Manifest currentOf(String id) {
        try (BucketStore s = openBucket(bucket())) {
            return new DeploymentStore(s).manifest(id).join();
        }
    }

    @Test
    void atATerminalTheValueIsAskedForWithoutEcho() {
        push();
        List<String> prompts = new ArrayList<>();
        ToolRun r = ToolRun.atTerminal(VALUE, prompts, "secret", "put", "API_TOKEN", "--config", cfg.toString(), "--bucket", bucket());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(prompts).containsExactly("Enter the value of secret API_TOKEN: ");
        neverShows(r);
        assertThat(current().secretNames()).containsExactly("API_TOKEN");
        ToolRun eof = ToolRun.atTerminal(null, prompts, "secret", "put", "OTHER", "--config", cfg.toString(), "--bucket", bucket());
        assertThat(eof.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(eof.err()).contains("secret put OTHER: no value was entered");
    }

    @Test
    void bulkSetsEveryEntryInOneNewDeploymentAndABadFileStoresNothing() throws Exception {
        String pushed = push();
        Path good = write(tmp, "s.json", "{ \"A\": \"" + VALUE + "\", \"B\": \"b value\" }");
        ToolRun r = secret("", "bulk", good.toString(), "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        neverShows(r);
        assertThat(r.json().getString("previous")).as("one deployment for the whole file").isEqualTo(pushed);
        assertThat(current().secretNames()).containsExactly("A", "B");

        Path bad = write(tmp, "bad.json", "{ \"C\": \"fine\", \"bad-name\": \"" + VALUE + "\", \"D\": 5, \"E\": null }");
        ToolRun refused = secret("", "bulk", bad.toString());
        assertThat(refused.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(refused.err()).contains("secret name 'bad-name' is not a valid binding name")
                .contains("the value of D is not a string (a number)").contains("the value of E is not a string (null)")
                .contains("(nothing was stored)");
        neverShows(refused);
        Path notJson = write(tmp, "broken.json", "{ \"A\": \"" + VALUE + "\" ");
        ToolRun broken = secret("", "bulk", notJson.toString());
        assertThat(broken.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(broken.err()).contains("is not a JSON object of secret names to string values");
        neverShows(broken);
        Path empty = write(tmp, "empty.json", "{}");
        assertThat(secret("", "bulk", empty.toString()).err()).contains("holds no secrets");
        assertThat(current().secretNames()).as("nothing changed").containsExactly("A", "B");
        assertThat(holding("fine")).isEmpty();
    }

    @Test
    void everyBadInputIsRefusedClearlyAndStoresNothing() throws Exception {
        String pushed = push();
        ToolRun badName = secret(VALUE, "put", "my-token");
        assertThat(badName.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(badName.err()).contains("secret name 'my-token' is not a valid binding name: letters, digits and _ only");

        ToolRun noStdin = secret("", "put", "API_TOKEN");
        assertThat(noStdin.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(noStdin.err()).contains("secret put API_TOKEN reads the value from stdin and got none");
        assertThat(secret(" \n\t", "put", "API_TOKEN").code()).as("only whitespace is no value").isEqualTo(ExitCodes.REFUSED);

        ToolRun onArgv = secret("", "put", "API_TOKEN", VALUE);
        assertThat(onArgv.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(onArgv.err()).contains("secret put takes the value on stdin, never on the command line");
        neverShows(onArgv);

        ToolRun clash = secret(VALUE, "put", "GREETING");
        assertThat(clash.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(clash.err()).contains("binding name already in use").contains("GREETING (already a plain_text binding, a var)")
                .contains("nothing was stored");

        ToolRun unknown = secret("", "delete", "NOT_SET");
        assertThat(unknown.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(unknown.err()).contains("secret NOT_SET of app not found");

        ToolRun tooBig = secret("x".repeat(SecretValues.MAX_BYTES + 1), "put", "API_TOKEN");
        assertThat(tooBig.err()).contains("is 5121 bytes; a secret holds at most 5120");

        ToolRun notUtf8 = ToolRun.run(Map.of(), null, new byte[] {(byte) 0xff, (byte) 0xfe}, null, "secret", "put", "API_TOKEN",
                "--config", cfg.toString(), "--bucket", bucket());
        assertThat(notUtf8.err()).contains("stdin is not UTF-8 text");

        ToolRun noWorker = ToolRun.piped(VALUE, "secret", "put", "API_TOKEN", "--bucket", bucket());
        assertThat(noWorker.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(noWorker.err()).contains("which Worker? Pass --name NAME");
        ToolRun envWithoutConfig = ToolRun.piped(VALUE, "secret", "list", "--env", "staging", "--name", "app", "--bucket", bucket());
        assertThat(envWithoutConfig.err()).contains("--env staging needs a Wrangler config");
        assertThat(ToolRun.piped("", "secret", "rotate", "--name", "app").code()).isEqualTo(ExitCodes.USAGE);

        assertThat(current().id()).as("no refusal made a deployment").isEqualTo(pushed);
        assertThat(Files.exists(tmp.resolve("bucket/secrets"))).as("no refusal stored a value").isFalse();
    }

    @Test
    void theEnvironmentNamesTheWorkerAsPushDoes() throws Exception {
        cfg = write(tmp, "p/wrangler.json", "{ \"name\": \"app\", \"main\": \"index.js\", \"env\": { \"staging\": {} } }");
        ToolRun r = secret(VALUE, "put", "API_TOKEN", "--env", "staging");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("set API_TOKEN of app-staging; no deployment is current: the next push of app-staging carries its secrets");
        assertThat(new JsonArray(secret("", "list", "--env", "staging").out()).size()).isEqualTo(1);
        assertThat(new JsonArray(secret("", "list").out())).as("the top-level Worker has none").isEmpty();
        assertThat(new JsonArray(ToolRun.piped("", "secret", "list", "--name", "app-staging", "--bucket", bucket()).out()).size()).isEqualTo(1);
    }

    @Test
    void aRollbackToADeploymentWhoseSecretWasDeletedIsRefused() {
        push();
        assertThat(secret(VALUE, "put", "API_TOKEN").code()).isZero();
        String withSecret = current().id();
        assertThat(secret("", "delete", "API_TOKEN").code()).isZero();
        ToolRun back = ToolRun.run("rollback", withSecret, "--bucket", bucket());
        assertThat(back.code()).as(back.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(back.err()).contains("it runs with secret(s) API_TOKEN whose value was deleted since");
        // one that was only replaced still rolls back, and runs with the value it had
        assertThat(secret("one", "put", "API_TOKEN").code()).isZero();
        String first = current().id();
        assertThat(secret("two", "put", "API_TOKEN").code()).isZero();
        assertThat(ToolRun.run("rollback", first, "--bucket", bucket()).code()).isZero();
        try (BucketStore s = openBucket(bucket())) {
            assertThat(new DeploymentStore(s).secretValues(current()).join()).containsExactly(Map.entry("API_TOKEN", "one"));
        }
        assertThat(current().bindings()).filteredOn(b -> b instanceof SecretTextBinding).hasSize(1);
    }
}
