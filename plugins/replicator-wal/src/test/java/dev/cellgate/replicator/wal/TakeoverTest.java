package dev.cellgate.replicator.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.core.spi.replication.RestoreResult;
import dev.cellgate.replicator.wal.restore.PinRule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Ownership moving between nodes: every takeover continues the newest pinned lineage, and a stale
 * owner's late writes under its old epoch are never read as the current lineage (split brain).
 */
class TakeoverTest extends WithFixture {
    @Test
    void manyEpochsWithTakeoversKeepEveryAcknowledgedWrite() throws Exception {
        WalReplicator r = fx.replicator();
        List<String> expected = new ArrayList<>();
        for (int round = 0; round < 9; round++) {
            String node = "node-" + (round % 3);
            CellHarness h = fx.activate(r, fx.bucket, node);
            if (round == 0) {
                h.sql("CREATE TABLE t (v TEXT PRIMARY KEY)").get(30, TimeUnit.SECONDS);
            }
            for (int i = 0; i < 5; i++) {
                String v = "r" + round + "-" + i;
                h.sql("INSERT INTO t VALUES ('" + v + "')").get(30, TimeUnit.SECONDS);
                expected.add("t:" + v + "|");
            }
            h.close(); // the node dies without detaching: the next one takes over
        }
        long epoch = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "reader");
        RestoreResult res = r.restore(Fixture.SCOPE, epoch, fx.db("reader")).get(30, TimeUnit.SECONDS);
        assertThat(res.epoch()).isEqualTo(9);
        assertThat(rows(fx.db("reader"))).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void aStaleOwnersLateWritesAreIgnoredOnceANewerEpochPinned() throws Exception {
        List<String> rows = splitBrain(new FaultyStore(fx.bucket), PinRule.REFUSE);
        assertThat(rows).containsExactlyInAnyOrder("t:a1|", "t:a2|", "t:b1|", "t:b2|");
    }

    /** A broken store: B's pin silently never reaches the bucket. C's restore refuses rather than pass over B's data. */
    @Test
    void withoutThePinTheRestoreIsRefusedRatherThanLoseAcknowledgedWrites() throws Exception {
        assertThatThrownBy(() -> splitBrain(lostPinOfB(), PinRule.REFUSE)).hasRootCauseInstanceOf(RestoreException.class)
                .rootCause().hasMessageContaining("e2 holds").hasMessageContaining("e1 is the newest pinned epoch");
    }

    /** The broken variant of the restore (it passes over data without a pin): the split-brain check catches it. */
    @Test
    void aRestoreThatPassesOverTheMissingPinIsCaughtLosingAcknowledgedWrites() throws Exception {
        List<String> rows = splitBrain(lostPinOfB(), PinRule.BROKEN_RESTORE_IGNORES_UNPINNED_DATA);
        assertThat(rows).as("B's acknowledged writes").doesNotContain("t:b1|", "t:b2|");
        assertThat(rows).as("A's unacknowledged late write").contains("t:a3|");
    }

    private FaultyStore lostPinOfB() {
        return new FaultyStore(fx.bucket).lose(k -> k.endsWith("/base.json") && k.contains("/e0000000000000002/"));
    }

    /**
     * A owns epoch 1 and writes a1, a2. B takes epoch 2 behind A's back and restores. A, not yet
     * told, commits a3: its segment lands under e1 after B's restore (A's commit fails: not owner).
     * B attaches (pins) and writes b1, b2. C takes epoch 3 and restores: returns C's rows.
     */
    private List<String> splitBrain(FaultyStore storeOfB, PinRule restoreOfC) throws Exception {
        WalReplicator r = fx.replicator();
        CellHarness a = fx.activate(r, fx.bucket, "node-a");
        a.sql("CREATE TABLE t (v TEXT PRIMARY KEY)", "INSERT INTO t VALUES ('a1')").get(30, TimeUnit.SECONDS);
        a.sql("INSERT INTO t VALUES ('a2')").get(30, TimeUnit.SECONDS);

        WalReplicator rb = fx.replicator(storeOfB, Fixture.policy(), 64L << 20);
        long eb = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-b");
        Path dbB = fx.db("node-b");
        rb.restore(Fixture.SCOPE, eb, dbB).get(30, TimeUnit.SECONDS);

        assertThatThrownBy(() -> a.sql("INSERT INTO t VALUES ('a3')").get(30, TimeUnit.SECONDS))
                .hasMessageContaining("no longer owned");
        assertThat(fx.lineageKeys()).anyMatch(k -> k.matches(".*/e0000000000000001/l0/[0-9a-f]{16}-0000000000000003-[0-9a-f]{16}\\.seg"));

        CellHarness b = fx.harness(dbB);
        b.attach(rb, Fixture.SCOPE, eb, BucketOwnership.check(fx.bucket, Fixture.SCOPE, "node-b", eb));
        b.sql("INSERT INTO t VALUES ('b1')").get(30, TimeUnit.SECONDS);
        b.sql("INSERT INTO t VALUES ('b2')").get(30, TimeUnit.SECONDS);

        long ec = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-c");
        fx.replicator(fx.bucket, Fixture.policy().withPins(restoreOfC), 64L << 20)
                .restore(Fixture.SCOPE, ec, fx.db("node-c")).get(30, TimeUnit.SECONDS);
        return rows(fx.db("node-c"));
    }

    private static List<String> rows(Path db) throws Exception {
        return CellHarness.dumpFile(db).stream().filter(s -> s.startsWith("t:")).toList();
    }
}
