package dev.cellgate.replicator.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.cellgate.core.spi.replication.AttachRefusedException;
import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.replicator.wal.replica.WalCellReplica;
import dev.cellgate.replicator.wal.restore.PinRule;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A cell whose lineage pins ({@code e<epoch>/base.json}) are gone while its segments are still in
 * the bucket: the activation must be refused, never served as an empty database, and nothing may
 * delete the data nobody can read any more (issue 30 item 4: a counter at 3 came back as 1, and
 * the next GC deleted the old data).
 */
class MissingPinTest extends WithFixture {
    static final String PIN = "/base.json";

    /** Three epochs on three nodes, the counter at 3; the garbage collection of each epoch ran. */
    private List<String> counterAtThree(WalReplicator r) throws Exception {
        for (int n = 1; n <= 3; n++) {
            CellHarness h = fx.activate(r, fx.bucket, "node-" + n);
            if (n == 1) {
                h.sql("CREATE TABLE c (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)", "INSERT INTO c VALUES (1, 1)")
                        .get(30, TimeUnit.SECONDS);
            } else {
                h.sql("UPDATE c SET n = n + 1").get(30, TimeUnit.SECONDS);
            }
            ((WalCellReplica) h.replica()).maintenanceIdle().get(30, TimeUnit.SECONDS);
            h.flush().get(30, TimeUnit.SECONDS);
            h.detach();
            h.close();
        }
        assertThat(fx.lineageKeys()).filteredOn(k -> k.endsWith(PIN)).as("the older pins were collected")
                .containsExactly("cells/" + Fixture.SCOPE + "/wal/e0000000000000003/base.json");
        return fx.lineageKeys();
    }

    private void deletePins() throws Exception {
        for (String k : fx.lineageKeys()) {
            if (k.endsWith(PIN)) {
                fx.bucket.delete(k).get(30, TimeUnit.SECONDS);
            }
        }
    }

    static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    @Test
    void dataWithoutAPinIsRefusedAndStaysInTheBucket() throws Exception {
        WalReplicator r = fx.replicator();
        List<String> before = counterAtThree(r);
        deletePins();
        List<String> data = fx.lineageKeys();
        assertThat(data).as("segments of e1..e3 are still there").isNotEmpty().noneMatch(k -> k.endsWith(PIN));

        long e4 = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-4");
        Throwable restore = catchThrowable(() -> r.restore(Fixture.SCOPE, e4, fx.db("node-4")).get(30, TimeUnit.SECONDS));
        boolean wrote = Files.exists(fx.db("node-4"));
        // A host that attaches anyway (a new database) must be refused as well, so no replica of e4
        // ever pins an empty lineage over the data and then collects it as garbage.
        CellHarness fresh = fx.harness(fx.db("node-4"));
        Throwable attach = catchThrowable(() -> fresh.attach(r, Fixture.SCOPE, e4,
                BucketOwnership.check(fx.bucket, Fixture.SCOPE, "node-4", e4)));
        if (attach == null) {
            ((WalCellReplica) fresh.replica()).maintenanceIdle().get(30, TimeUnit.SECONDS);
        }

        assertThat(fx.lineageKeys()).as("the data after the activation attempts").containsExactlyInAnyOrderElementsOf(data);
        assertThat(restore).as("the restore").isNotNull().hasRootCauseInstanceOf(RestoreException.class);
        assertThat(rootCause(restore)).hasMessageContaining("cell " + Fixture.SCOPE)
                .hasMessageContaining("e0000000000000003").hasMessageContaining("pin");
        assertThat(wrote).as("a database was written").isFalse();
        assertThat(Fixture.strayFiles(fx.db("node-4"))).isEmpty();
        assertThat(attach).as("the attach").isInstanceOf(AttachRefusedException.class).hasMessageContaining("pin");
        assertThat(before).containsAll(data);
    }

    /**
     * The broken variant of the restore (it passes over data without a pin, as before): the check
     * above catches it serving an empty database; the collection's own guard still keeps the data.
     */
    @Test
    void aRestoreThatPassesOverTheMissingPinIsCaughtServingAnEmptyDatabase() throws Exception {
        List<String> data = brokenActivation(PinRule.BROKEN_RESTORE_IGNORES_UNPINNED_DATA);
        assertThat(fx.lineageKeys()).as("the collection of e4 refused to delete what no plan read").containsAll(data);
    }

    /** Both guards broken: the data loss issue 30 reproduced, which is what the guards prevent. */
    @Test
    void withoutTheCollectionsGuardTheOldDataIsDeleted() throws Exception {
        List<String> data = brokenActivation(PinRule.BROKEN_EVERYWHERE);
        assertThat(fx.lineageKeys()).as("e1..e3 collected").doesNotContainAnyElementsOf(data)
                .containsExactly("cells/" + Fixture.SCOPE + "/wal/e0000000000000004/base.json");
    }

    /** Counter at 3, pins deleted, then an activation at e4 under {@code rule}: returns the data keys before it. */
    private List<String> brokenActivation(PinRule rule) throws Exception {
        WalReplicator strict = fx.replicator();
        counterAtThree(strict);
        deletePins();
        List<String> data = fx.lineageKeys();
        WalReplicator broken = fx.replicator(fx.bucket, Fixture.policy().withPins(rule), 64L << 20);
        CellHarness h = fx.activate(broken, fx.bucket, "node-4");
        ((WalCellReplica) h.replica()).maintenanceIdle().get(30, TimeUnit.SECONDS);
        assertThat(h.dump()).as("the broken variant serves a database without the counter").noneMatch(r -> r.startsWith("c:"));
        return data;
    }
}
