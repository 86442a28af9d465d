package dev.cellgate.deploy.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.Manifest;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.records.CurrentDeployment;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.deploy.InterferingStore;
import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.ExitCodes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rollback}: through the CLI for the ordinary cases, through {@link Rollback} for races. */
class RollbackTest {
    @TempDir
    Path tmp;
    String bucket;
    String v1;
    String v2;

    @BeforeEach
    void twoDeployments() throws Exception {
        bucket = "file://" + tmp.resolve("bucket");
        v1 = push("v1");
        v2 = push("v2");
    }

    String push(String text) throws Exception {
        Path b = tmp.resolve(text + ".js");
        Files.writeString(b, "export default { fetch() { return new Response('" + text + "'); } };\n");
        ToolRun r = ToolRun.run("push", b.toString(), "--bucket", bucket, "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        return r.json().getString("deployment");
    }

    CurrentDeployment current() {
        try (BucketStore s = store()) {
            return new DeploymentStore(s).current().join().orElseThrow().value();
        }
    }

    BucketStore store() {
        return new BucketStores(null).open(bucket, StoreOptions.none());
    }

    @Test
    void rollbackGoesToPreviousAndASecondRollbackUndoesIt() {
        ToolRun r = ToolRun.run("rollback", "--bucket", bucket, "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.json().getString("deployment")).isEqualTo(v1);
        assertThat(current()).extracting(CurrentDeployment::deployment, CurrentDeployment::previous).containsExactly(v1, v2);
        ToolRun again = ToolRun.run("rollback", "--bucket", bucket);
        assertThat(again.code()).isZero();
        assertThat(again.out()).contains("from " + v1 + " to " + v2);
        assertThat(current().deployment()).isEqualTo(v2);
    }

    @Test
    void rollbackToANamedDeployment() throws Exception {
        String v3 = push("v3");
        ToolRun r = ToolRun.run("rollback", v1, "--bucket", bucket);
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(current()).extracting(CurrentDeployment::deployment, CurrentDeployment::previous).containsExactly(v1, v3);
    }

    @Test
    void rollbackToTheCurrentOneChangesNothing() {
        byte[] before = currentBytes();
        ToolRun r = ToolRun.run("rollback", v2, "--bucket", bucket, "--json");
        assertThat(r.code()).isZero();
        assertThat(r.json().getBoolean("changed")).isFalse();
        assertThat(currentBytes()).isEqualTo(before);
    }

    byte[] currentBytes() {
        try (BucketStore s = store()) {
            return s.get(Keys.CURRENT_DEPLOYMENT).join().orElseThrow().bytes();
        }
    }

    @Test
    void refusalsLeaveCurrentAlone() throws Exception {
        byte[] before = currentBytes();
        ToolRun unknown = ToolRun.run("rollback", "d-20200101T000000Z-abcdef", "--bucket", bucket);
        assertThat(unknown.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(unknown.err()).contains("has no manifest");
        ToolRun malformed = ToolRun.run("rollback", "v1", "--bucket", bucket);
        assertThat(malformed.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(malformed.err()).contains("is not a deployment id");
        assertThat(ToolRun.run("rollback", v1, v2, "--bucket", bucket).code()).isEqualTo(ExitCodes.USAGE);
        assertThat(currentBytes()).isEqualTo(before);
    }

    @Test
    void aTargetWithAMissingOrCorruptBlobIsRefused() throws Exception {
        byte[] before = currentBytes();
        try (BucketStore s = store()) {
            Manifest m = new DeploymentStore(s).manifest(v1).join();
            s.put(Keys.blob(m.modules().get(0).sha256()), "tampered".getBytes(StandardCharsets.UTF_8)).join();
        }
        ToolRun r = ToolRun.run("rollback", "--bucket", bucket);
        assertThat(r.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err()).contains("cannot roll back to " + v1).contains("does not match its digest");
        assertThat(currentBytes()).isEqualTo(before);
    }

    @Test
    void nothingToRollBackInAnEmptyBucketOrWithoutPrevious() throws Exception {
        ToolRun empty = ToolRun.run("rollback", "--bucket", "file://" + tmp.resolve("empty"));
        assertThat(empty.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(empty.err()).contains("nothing is deployed yet");
        String other = "file://" + tmp.resolve("single");
        Path b = tmp.resolve("only.js");
        Files.writeString(b, "export default { fetch() { return new Response('x'); } };\n");
        assertThat(ToolRun.run("push", b.toString(), "--bucket", other).code()).isZero();
        ToolRun none = ToolRun.run("rollback", "--bucket", other);
        assertThat(none.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(none.err()).contains("records no previous one");
    }

    @Test
    void aConcurrentMoveMakesAnImplicitRollbackStopWithAConflict() throws Exception {
        String v3 = push("v3");
        // Just before our CAS, another writer makes v1 current: "previous" no longer means what we read.
        try (BucketStore s = new InterferingStore(store(), Keys.CURRENT_DEPLOYMENT, 1, real -> {
            DeploymentStore d = new DeploymentStore(real);
            assertThat(d.moveCurrent(d.current().join(), v1, System.currentTimeMillis()).join().written()).isTrue();
        })) {
            assertThatThrownBy(() -> new Rollback(new DeploymentStore(s)).run(null))
                    .isInstanceOfSatisfying(CommandException.class, e -> {
                        assertThat(e.exitCode()).isEqualTo(ExitCodes.CONFLICT);
                        assertThat(e.getMessage()).contains("moved while rolling back from " + v3);
                    });
        }
        assertThat(current().deployment()).as("the other writer's move stands").isEqualTo(v1);
    }

    @Test
    void aConcurrentMoveMakesANamedRollbackRetryAndWin() throws Exception {
        String v3 = push("v3");
        try (BucketStore s = new InterferingStore(store(), Keys.CURRENT_DEPLOYMENT, 2, real -> {
            DeploymentStore d = new DeploymentStore(real);
            d.moveCurrent(d.current().join(), v3, System.currentTimeMillis()).join();
        })) {
            Rollback.Result r = new Rollback(new DeploymentStore(s)).run(v1);
            assertThat(r.changed()).isTrue();
            assertThat(((InterferingStore) s).fired()).isEqualTo(2);
        }
        assertThat(current()).extracting(CurrentDeployment::deployment, CurrentDeployment::previous).containsExactly(v1, v3);
    }

    @Test
    void jsonOutputOfARollback() {
        ToolRun r = ToolRun.run(Map.of(), "rollback", "--bucket", bucket, "--json");
        assertThat(r.json().getMap()).containsEntry("ok", true).containsEntry("deployment", v1).containsEntry("previous", v2)
                .containsEntry("changed", true);
    }
}
