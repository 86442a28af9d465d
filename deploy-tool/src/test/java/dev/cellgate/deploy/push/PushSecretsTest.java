package dev.cellgate.deploy.push;

import static dev.cellgate.deploy.push.Fixtures.bucketUrl;
import static dev.cellgate.deploy.push.Fixtures.openBucket;
import static dev.cellgate.deploy.push.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.deploy.SecretRelease;
import dev.cellgate.core.deploy.SecretStore;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.time.Ticker;
import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import dev.cellgate.deploy.progress.Progress;
import dev.cellgate.deploy.wrangler.WranglerConfig;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A push and the Worker's secrets: {@code secrets.required} checked before any upload, every secret carried, races settled. */
class PushSecretsTest {
    @TempDir
    Path tmp;

    String bucket() {
        return bucketUrl(tmp.resolve("bucket"));
    }

    Path project(String extra) throws Exception {
        write(tmp, "p/index.js", "export default { fetch(req, env) { return new Response(env.A + env.B); } };\n");
        return write(tmp, "p/wrangler.json", "{ \"name\": \"app\", \"main\": \"index.js\"" + extra + " }");
    }

    ToolRun push() {
        return ToolRun.run("push", tmp.resolve("p/index.js").toString(), "--bucket", bucket());
    }

    ToolRun put(String name, String value) {
        return ToolRun.piped(value, "secret", "put", name, "--config", tmp.resolve("p/wrangler.json").toString(), "--bucket", bucket());
    }

    Manifest current() {
        try (BucketStore s = openBucket(bucket())) {
            DeploymentStore d = new DeploymentStore(s);
            return d.manifest(d.current().join().orElseThrow().value().deployment()).join();
        }
    }

    /** The defect of issue 21 item 5: the key was refused by name, so no project declaring its secrets could deploy. */
    @Test
    void aConfigWithSecretsRequiredPushesOnceTheyAreSet() throws Exception {
        project(", \"secrets\": { \"required\": [] }");
        ToolRun r = push();
        assertThat(r.code()).as(r.toString()).isZero();
    }

    @Test
    void missingRequiredSecretsAreAllNamedAtOnceAndNothingIsUploaded() throws Exception {
        project(", \"secrets\": { \"required\": [\"A\", \"B\", \"C\"] }");
        assertThat(put("B", "b").code()).isZero();
        ToolRun r = push();
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err()).contains("secrets.required: 2 secret(s) of app are not set: A, C (set each with: deploy-tool secret put NAME --name app")
                .contains("nothing was uploaded");
        assertThat(Files.exists(tmp.resolve("bucket/deploy-blobs"))).as("no blob uploaded").isFalse();
        assertThat(Files.exists(tmp.resolve("bucket/deploy"))).as("no manifest written").isFalse();

        assertThat(put("A", "a").code()).isZero();
        assertThat(put("C", "c").code()).isZero();
        ToolRun ok = ToolRun.run("push", tmp.resolve("p/index.js").toString(), "--bucket", bucket(), "--json");
        assertThat(ok.code()).as(ok.toString()).isZero();
        assertThat(ok.json().getJsonArray("secrets").getList()).containsExactly("A", "B", "C");
        assertThat(current().secretNames()).containsExactly("A", "B", "C");
    }

    @Test
    void everySecretSetIsCarriedByEachPushAndAConfigBindingOfTheSameNameIsRefused() throws Exception {
        project("");
        assertThat(put("A", "a").code()).isZero();
        assertThat(push().code()).isZero();
        assertThat(current().secretNames()).as("not required, still carried").containsExactly("A");
        assertThat(push().code()).isZero();
        assertThat(current().secretNames()).containsExactly("A");

        project(", \"vars\": { \"A\": \"plain\" }, \"kv_namespaces\": [ { \"binding\": \"B\", \"id\": \"ns\" } ]");
        assertThat(put("B", "b").code()).as("B is no binding of the current deployment yet").isZero();
        String before = current().id();
        ToolRun r = push();
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err()).contains("binding name already in use: A, B is a secret of app and also a binding in the config");
        assertThat(current().id()).isEqualTo(before);
    }

    @Test
    void aRequiredNameMustBeASecretName() throws Exception {
        project(", \"secrets\": { \"required\": [\"ok\", \"not-ok\"], \"optional\": [] }");
        ToolRun r = push();
        assertThat(r.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err()).contains("secrets key \"optional\" is not supported (required)");
        project(", \"secrets\": { \"required\": [\"ok\", \"not-ok\"] }");
        assertThat(push().err()).contains("secrets.required: secret name 'not-ok' is not a valid binding name");
    }

    static Bundle bundle() {
        return new Bundle(WranglerConfig.parse(new JsonObject().put("name", "app"), "test"), "app", "index.js",
                Map.of("index.js", "export default { fetch() { return new Response('x'); } };\n".getBytes(StandardCharsets.UTF_8)),
                List.of(), "test");
    }

    /**
     * A {@code secret put} lands between the push's read of current and its move: the put's own
     * deployment (from the one before the push) is replaced by the push, which read the secrets
     * earlier. The push then settles: one more deployment with the secrets in force.
     */
    Manifest pushWithAPutInTheMiddle(boolean settle) {
        try (BucketStore store = openBucket(bucket())) {
            new Publisher(store, Progress.OFF).publish(bundle());
            AtomicBoolean once = new AtomicBoolean(true);
            Publisher p = new Publisher(store, Progress.OFF, null, () -> {
                if (once.getAndSet(false)) {
                    new SecretStore(store).put("app", "LATE", "late value", System.currentTimeMillis()).join();
                    assertThat(new SecretRelease(store, Ticker.SYSTEM).publish("app", Set.of()).published()).isTrue();
                }
            }, settle);
            Publisher.Result r = p.publish(bundle(), Map.of());
            assertThat(r.casRetries()).as("the put moved current under the push").isEqualTo(1);
            return current();
        }
    }

    @Test
    void aSecretPutWhileThePushWritesIsInTheDeploymentLeftCurrent() {
        assertThat(pushWithAPutInTheMiddle(true).secretNames()).containsExactly("LATE");
    }

    @Test
    void brokenVariantWithoutSettlingThePushDropsTheSecretAndTheCheckCatchesIt() {
        assertThat(pushWithAPutInTheMiddle(false).secretNames()).isEmpty();
    }
}
