package dev.cellgate.core.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.deploy.bindings.Binding;
import dev.cellgate.core.deploy.bindings.KvNamespaceBinding;
import dev.cellgate.core.deploy.bindings.PlainTextBinding;
import dev.cellgate.core.deploy.bindings.SecretTextBinding;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.store.file.FileBucketStore;
import dev.cellgate.core.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Secret values in a real (file) bucket, and the deployment a secret change publishes. */
class SecretReleaseTest {
    @TempDir
    Path tmp;

    private FileBucketStore bucket;
    private SecretStore secrets;
    private DeploymentStore deployments;
    private SecretRelease release;

    @BeforeEach
    void open() {
        bucket = new FileBucketStore("file://" + tmp, tmp, false);
        secrets = new SecretStore(bucket);
        deployments = new DeploymentStore(bucket);
        release = new SecretRelease(bucket, Ticker.SYSTEM);
    }

    /** What a push of {@code worker} leaves: a current deployment with a var and a KV namespace. */
    private String pushed(String worker, List<Binding> bindings) {
        byte[] code = "export default { fetch() { return new Response('x'); } };".getBytes(StandardCharsets.UTF_8);
        deployments.putBlob(code).join();
        long now = System.currentTimeMillis();
        String id = DeploymentIds.next(now);
        Manifest m = new Manifest(id, worker, now, "index.js", List.of(new Manifest.BlobRef("index.js", DeploymentStore.sha256(code),
                code.length)), bindings, null, "2025-04-01", List.of(), null, List.of(), WorkerSettings.NONE);
        assertThat(deployments.putManifest(m).join().written()).isTrue();
        assertThat(deployments.moveCurrent(deployments.current().join(), id, now).join().written()).isTrue();
        return id;
    }

    private Manifest current() {
        return deployments.manifest(deployments.current().join().orElseThrow().value().deployment()).join();
    }

    @Test
    void aPutIsANewVersionAndTheNewestIsInForceUntilDeleteRemovesEveryVersion() {
        String v1 = secrets.put("app", "TOKEN", "first", 1_000).join();
        String v2 = secrets.put("app", "TOKEN", "second", 2_000).join();
        secrets.put("app", "OTHER", "o", 1_500).join();
        secrets.put("app-2", "TOKEN", "not app's", 3_000).join();
        assertThat(secrets.versions("app").join()).containsExactly(Map.entry("OTHER", secrets.versions("app").join().get("OTHER")),
                Map.entry("TOKEN", v2));
        assertThat(secrets.value("app", "TOKEN", v1).join()).contains("first");
        assertThat(secrets.value("app", "TOKEN", v2).join()).contains("second");
        assertThat(bucket.get(Keys.secret("app", "TOKEN", v2)).join()).isPresent();
        assertThat(secrets.delete("app", "TOKEN").join()).isEqualTo(2);
        assertThat(secrets.versions("app").join()).containsOnlyKeys("OTHER");
        assertThat(secrets.versions("app-2").join()).containsOnlyKeys("TOKEN");
        assertThat(secrets.value("app", "TOKEN", v1).join()).isEmpty();
        assertThatThrownBy(() -> secrets.put("app", "bad-name", "x", 1).join()).hasMessageContaining("is not a valid binding name");
    }

    @Test
    void aChangePublishesTheCurrentDeploymentAgainWithTheSecretsInForceAndOnlyThen() {
        assertThat(release.publish("app", Set.of()).why()).startsWith("no deployment is current");
        String first = pushed("app", List.of(new PlainTextBinding("GREETING", "hi"), new KvNamespaceBinding("KV", "ns")));
        assertThat(release.publish("app", Set.of()).why()).contains("already runs these secrets");
        String version = secrets.put("app", "TOKEN", "s3cr3t-value", System.currentTimeMillis()).join();

        SecretRelease.Outcome out = release.publish("app", Set.of());
        assertThat(out.published()).isTrue();
        assertThat(out.previous()).isEqualTo(first);
        Manifest m = current();
        assertThat(m.id()).isEqualTo(out.deployment()).isNotEqualTo(first);
        assertThat(m.bindings()).containsExactly(new PlainTextBinding("GREETING", "hi"), new KvNamespaceBinding("KV", "ns"),
                new SecretTextBinding("TOKEN", version));
        assertThat(m.modules()).isEqualTo(deployments.manifest(first).join().modules());
        assertThat(new String(bucket.get(Keys.manifest(m.id())).join().orElseThrow().bytes(), StandardCharsets.UTF_8))
                .as("the manifest names the version, never the value").contains(version).doesNotContain("s3cr3t-value");
        assertThat(deployments.secretValues(m).join()).containsExactly(Map.entry("TOKEN", "s3cr3t-value"));
        assertThat(release.publish("app", Set.of()).published()).as("nothing changed since").isFalse();

        // a delete in progress leaves its name out; the values go after
        SecretRelease.Outcome dropped = release.publish("app", Set.of("TOKEN"));
        assertThat(dropped.published()).isTrue();
        assertThat(current().secretNames()).isEmpty();
        // the deployment that named it still reads its value until the delete removes it (a rollback target)
        assertThat(deployments.secretValues(m).join()).containsOnlyKeys("TOKEN");
        secrets.delete("app", "TOKEN").join();
        assertThat(deployments.secretValues(m).join()).isEmpty();
    }

    @Test
    void anotherWorkersDeploymentIsLeftAloneAndAClashIsRefusedNamingIt() {
        pushed("site", List.of(new PlainTextBinding("TOKEN", "plain")));
        secrets.put("app", "TOKEN", "x", 1).join();
        assertThat(release.publish("app", Set.of()).why()).contains("runs the Worker site, not app");
        secrets.put("site", "TOKEN", "x", 1).join();
        assertThatThrownBy(() -> release.publish("site", Set.of())).isInstanceOf(SecretRelease.ClashException.class)
                .hasMessageContaining("binding name already in use").hasMessageContaining("TOKEN (already a plain_text binding, a var)");
    }

    /** Compare-and-swaps of deploy/current.json lose {@code losses} times (another change won), then pass. */
    static final class LostSwaps extends ForwardingBucketStore {
        final AtomicInteger left;
        final AtomicInteger swaps = new AtomicInteger();

        LostSwaps(BucketStore inner, int losses) {
            super(inner);
            this.left = new AtomicInteger(losses);
        }

        @Override
        public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
            if (key.equals(Keys.CURRENT_DEPLOYMENT)) {
                swaps.incrementAndGet();
                if (left.getAndDecrement() > 0) {
                    return CompletableFuture.completedFuture(new WriteOutcome.Rejected("injected: another change won"));
                }
            }
            return inner.putIfVersion(key, bytes, version);
        }
    }

    @Test
    void aLostSwapIsTriedAgainAndOneThatKeepsLosingStopsAfterTheAttemptBound() {
        pushed("app", List.of(new PlainTextBinding("GREETING", "hi")));
        secrets.put("app", "TOKEN", "v", System.currentTimeMillis()).join();
        LostSwaps twice = new LostSwaps(bucket, 2);
        assertThat(new SecretRelease(twice, Ticker.SYSTEM).publish("app", Set.of()).published()).isTrue();
        assertThat(twice.swaps.get()).isEqualTo(3);
        assertThat(current().bindings()).extracting(Binding::name).contains("TOKEN");

        secrets.put("app", "OTHER", "w", System.currentTimeMillis()).join();
        LostSwaps always = new LostSwaps(bucket, Integer.MAX_VALUE);
        assertThatThrownBy(() -> new SecretRelease(always, Ticker.SYSTEM).publish("app", Set.of()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("kept moving");
        assertThat(always.swaps.get()).isEqualTo(SecretRelease.MAX_ATTEMPTS);
    }
}
