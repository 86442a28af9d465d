package dev.cellgate.replicator.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.cellgate.core.spi.replication.CommitOutcomeUnknownException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A gate that fails after its segment landed: the commit may have been applied (a later restore
 * can include it), so its failure must say "outcome unknown", never "not durable, retry"
 * (issue 30 item 5). A commit that never left the node is plainly not durable.
 */
class OutcomeUnknownTest extends WithFixture {

    @Test
    void aSegmentThatLandedBeforeTheCheckSaidNotOwnerIsOutcomeUnknownAndIsRestored() throws Exception {
        WalReplicator r = fx.replicator();
        CellHarness a = fx.activate(r, fx.bucket, "node-a");
        a.sql("CREATE TABLE t (v TEXT PRIMARY KEY)", "INSERT INTO t VALUES ('a1')").get(30, TimeUnit.SECONDS);
        long eb = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-b"); // B takes over, restores later

        Throwable failed = catchThrowable(() -> a.sql("INSERT INTO t VALUES ('a2')").get(30, TimeUnit.SECONDS));

        assertThat(restoredRows(r, eb, "node-b")).as("the failed commit was applied").contains("t:a2|");
        assertOutcomeUnknown(failed, "owned");
    }

    @Test
    void aSegmentThatLandedBeforeTheCheckTimedOutIsOutcomeUnknownAndIsRestored() throws Exception {
        FaultyStore store = new FaultyStore(fx.bucket);
        WalReplicator r = fx.replicator(store, Fixture.policy(), 64L << 20);
        long ea = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-a");
        CellHarness a = fx.harness(fx.db("node-a"));
        a.attach(r, Fixture.SCOPE, ea, BucketOwnership.check(store, Fixture.SCOPE, "node-a", ea));
        a.sql("CREATE TABLE t (v TEXT PRIMARY KEY)", "INSERT INTO t VALUES ('a1')").get(30, TimeUnit.SECONDS);
        store.readsTimeOut(k -> k.endsWith("/own.json")); // the segment lands, the confirm read does not answer

        Throwable failed = catchThrowable(() -> a.sql("INSERT INTO t VALUES ('a2')").get(30, TimeUnit.SECONDS));

        long next = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-b");
        assertThat(restoredRows(fx.replicator(), next, "node-b")).as("the failed commit was applied").contains("t:a2|");
        assertOutcomeUnknown(failed, "no answer");
    }

    @Test
    void aCommitThatNeverLeftTheNodeIsNotDurableNotOutcomeUnknown() throws Exception {
        // The pin never lands, so no segment is ever uploaded.
        FaultyStore store = new FaultyStore(fx.bucket).ambiguousWithoutWrite(k -> k.endsWith("/base.json"));
        WalReplicator r = fx.replicator(store, Fixture.policy(), 64L << 20);
        long ea = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-a");
        CellHarness a = fx.harness(fx.db("node-a"));
        a.attach(r, Fixture.SCOPE, ea, BucketOwnership.check(fx.bucket, Fixture.SCOPE, "node-a", ea));

        Throwable failed = catchThrowable(() -> a.sql("CREATE TABLE t (v TEXT PRIMARY KEY)").get(30, TimeUnit.SECONDS));

        assertThat(failed).isInstanceOf(ExecutionException.class);
        assertThat(failed.getCause()).isNotInstanceOf(CommitOutcomeUnknownException.class);
        assertThat(failed.getCause().getMessage()).doesNotContain("outcome unknown");
        long next = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-b");
        assertThat(restoredRows(fx.replicator(), next, "node-b")).as("nothing was applied").isEmpty();
    }

    private List<String> restoredRows(WalReplicator r, long epoch, String node) throws Exception {
        Path db = fx.db(node);
        if (!r.restore(Fixture.SCOPE, epoch, db).get(30, TimeUnit.SECONDS).hasData()) {
            return List.of();
        }
        return CellHarness.dumpFile(db).stream().filter(s -> s.startsWith("t:")).toList();
    }

    private static void assertOutcomeUnknown(Throwable failed, String reason) {
        assertThat(failed).as("the commit future").isInstanceOf(ExecutionException.class);
        Throwable c = failed.getCause();
        assertThat(c.getMessage()).as("what the host is told").contains("outcome unknown").contains("may have been applied")
                .contains(reason);
        assertThat(c).isInstanceOf(CommitOutcomeUnknownException.class);
    }
}
