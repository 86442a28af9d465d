package dev.cellgate.deploy.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.store.probe.ProbeResult;
import dev.cellgate.core.store.probe.ProbeStep;
import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage step passes on the real file store and fails, naming the step, on stores whose
 * conditional writes are broken on purpose: the negative controls that show the check can fail.
 */
class StorageCheckTest {
    @TempDir
    Path tmp;

    BucketStore real() {
        return new BucketStores(null).open("file://" + tmp.resolve("bucket"), StoreOptions.none());
    }

    /** Conditional writes that do not check: create-only overwrites, compare-and-swap ignores the version. */
    static final class Unconditional extends ForwardingBucketStore {
        final boolean brokenCreate;

        Unconditional(BucketStore inner, boolean brokenCreate) {
            super(inner);
            this.brokenCreate = brokenCreate;
        }

        @Override
        public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
            return brokenCreate ? inner.put(key, bytes) : inner.putIfAbsent(key, bytes);
        }

        @Override
        public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
            return inner.put(key, bytes);
        }

    }

    @Test
    void theRealFileStorePasses() {
        try (BucketStore s = real()) {
            ProbeResult r = StorageCheck.NODE_PROBE.run(s, "t");
            assertThat(r.ok()).as(r.toString()).isTrue();
            assertThat(r.steps()).extracting(ProbeStep::name)
                    .containsExactly("create", "reject-create", "cas-update", "reject-stale-cas", "race", "cleanup");
            assertThat(r.steps().get(4).detail()).as("the node's probe: 8 rounds").contains("x 8 rounds");
        }
    }

    @Test
    void aCreateThatOverwritesFailsAtRejectCreateAndStillCleansUp() {
        try (BucketStore s = real()) {
            ProbeResult r = StorageCheck.NODE_PROBE.run(new Unconditional(s, true), "t");
            assertThat(r.ok()).isFalse();
            assertThat(r.summary()).contains("at step 'reject-create'");
            assertThat(r.steps()).extracting(ProbeStep::name).containsExactly("create", "reject-create", "cleanup");
            assertThat(r.steps().get(2).ok()).isTrue();
            assertThat(s.list("probe/", null, 10).join().keys()).isEmpty();
        }
    }

    @Test
    void aCompareAndSwapThatIgnoresTheVersionFailsAtTheStaleStep() {
        try (BucketStore s = real()) {
            ProbeResult r = StorageCheck.NODE_PROBE.run(new Unconditional(s, false), "t");
            assertThat(r.ok()).isFalse();
            assertThat(r.summary()).contains("at step 'reject-stale-cas'");
        }
    }

    @Test
    void diagnoseOverABrokenStoreExitsUnhealthyNamingTheStep() {
        StorageCheck broken = (store, who) -> StorageCheck.NODE_PROBE.run(new Unconditional(store, false), who);
        ToolRun r = ToolRun.run(java.util.Map.of(), List.of(new DiagnoseCommand(broken)),
                "diagnose", "--bucket", "file://" + tmp.resolve("bucket"), "--json");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.UNHEALTHY);
        assertThat(r.json().getJsonArray("problems").getString(0)).startsWith("storage: storage probe FAILED on")
                .contains("reject-stale-cas");
    }
}
