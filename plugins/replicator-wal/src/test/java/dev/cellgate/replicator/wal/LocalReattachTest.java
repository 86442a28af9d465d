package dev.cellgate.replicator.wal;

import dev.cellgate.core.spi.replication.AttachRefusedException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.replicator.wal.format.LineageEnd;
import dev.cellgate.replicator.wal.format.ReplicaMetadata;
import dev.cellgate.replicator.wal.format.Span;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node that evicted a cell may re-attach the copy it kept, but only when nothing happened in
 * between: the copy must match its {@code .replica.json} and the end of the bucket's lineage.
 */
class LocalReattachTest {
    @TempDir
    Path tmp;
    Fixture fx;
    WalReplicator r;

    @BeforeEach
    void setUp() {
        fx = new Fixture(tmp);
        r = fx.replicator();
    }

    @AfterEach
    void tearDown() throws Exception {
        fx.close();
    }

    /** Node A writes, flushes, detaches cleanly and closes: its local copy stays. */
    private Path evictedCopyOfA() throws Exception {
        CellHarness a = fx.activate(r, fx.bucket, "node-a");
        a.sql("CREATE TABLE t (v TEXT)", "INSERT INTO t VALUES ('a1')").get(30, TimeUnit.SECONDS);
        a.sql("INSERT INTO t VALUES ('a2')").get(30, TimeUnit.SECONDS);
        a.flush().get(30, TimeUnit.SECONDS);
        a.detach();
        a.close();
        assertThat(ReplicaMetadata.pathFor(a.db)).exists();
        return a.db;
    }

    private CellHarness reattach(Path db, String node) throws Exception {
        long epoch = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, node);
        CellHarness h = fx.harness(db);
        h.attach(r, Fixture.SCOPE, epoch, BucketOwnership.check(fx.bucket, Fixture.SCOPE, node, epoch));
        return h;
    }

    @Test
    void aCleanlyDetachedCopyIsReusedWithoutARestoreAndTheLineageContinues() throws Exception {
        Path db = evictedCopyOfA();
        CellHarness a = reattach(db, "node-a");
        a.sql("INSERT INTO t VALUES ('a3')").get(30, TimeUnit.SECONDS);
        List<String> live = a.dump();
        assertThat(live).contains("t:a1|", "t:a2|", "t:a3|");

        long epoch = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-b");
        r.restore(Fixture.SCOPE, epoch, fx.db("node-b")).get(30, TimeUnit.SECONDS);
        assertThat(CellHarness.dumpFile(fx.db("node-b"))).isEqualTo(live);
    }

    @Test
    void aCopyChangedAfterItsDetachIsRefused() throws Exception {
        Path db = evictedCopyOfA();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.createStatement().execute("INSERT INTO t VALUES ('never replicated')");
        }
        assertThatThrownBy(() -> reattach(db, "node-a")).isInstanceOf(AttachRefusedException.class)
                .hasMessageContaining("differs from its replica metadata");
    }

    @Test
    void aCopyIsRefusedWhenAnotherNodeWroteInBetween() throws Exception {
        Path db = evictedCopyOfA();
        CellHarness b = fx.activate(r, fx.bucket, "node-b");
        b.sql("INSERT INTO t VALUES ('b1')").get(30, TimeUnit.SECONDS);
        b.close();
        assertThatThrownBy(() -> reattach(db, "node-a")).isInstanceOf(AttachRefusedException.class)
                .hasMessageContaining("but the bucket lineage below epoch").hasMessageContaining("restore instead");
    }

    @Test
    void aCopyIsAcceptedWhenAnotherNodeOnlyPinnedAndWroteNothing() throws Exception {
        Path db = evictedCopyOfA();
        CellHarness b = fx.activate(r, fx.bucket, "node-b");
        b.flush().get(30, TimeUnit.SECONDS);
        b.close();
        CellHarness a = reattach(db, "node-a");
        a.sql("INSERT INTO t VALUES ('a3')").get(30, TimeUnit.SECONDS);
        long epoch = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-c");
        r.restore(Fixture.SCOPE, epoch, fx.db("node-c")).get(30, TimeUnit.SECONDS);
        assertThat(CellHarness.dumpFile(fx.db("node-c"))).isEqualTo(a.dump());
    }

    @Test
    void aCopyWithoutMetadataIsRefused() throws Exception {
        Path db = evictedCopyOfA();
        Files.delete(ReplicaMetadata.pathFor(db));
        assertThatThrownBy(() -> reattach(db, "node-a")).isInstanceOf(AttachRefusedException.class)
                .hasMessageContaining("no replica metadata");
    }

    @Test
    void aNewEmptyDatabaseIsRefusedWhenTheBucketHoldsData() throws Exception {
        evictedCopyOfA();
        Path fresh = fx.db("node-z");
        assertThatThrownBy(() -> reattach(fresh, "node-z")).isInstanceOf(AttachRefusedException.class)
                .hasMessageContaining("the bucket holds data for this cell");
    }

    @Test
    void aStaleCopyDetachedBeforeAnUnflushedCommitIsRefused() throws Exception {
        // A slow bucket keeps the commit's upload in flight at the detach; on the plain file bucket
        // it could land first (then the copy is clean and re-attaching it is right).
        FaultyStore slow = new FaultyStore(fx.bucket).delay(1_000);
        WalReplicator slowReplicator = fx.replicator(slow, Fixture.policy(), 64L << 20);
        CellHarness a = fx.activate(slowReplicator, slow, "node-a");
        a.sql("CREATE TABLE t (v TEXT)").get(30, TimeUnit.SECONDS);
        // fencing: detach without flush while a commit is not yet durable
        a.tx(c -> c.createStatement().execute("INSERT INTO t VALUES ('in flight')"));
        a.detach();
        slow.crash(); // the fenced node's upload never lands
        a.close();
        assertThatThrownBy(() -> reattach(a.db, "node-a")).isInstanceOf(AttachRefusedException.class);
    }

    /**
     * The broken variant of the re-attach check: a copy whose metadata lies (claims a restore for
     * the new epoch, so the bucket is not consulted). B's acknowledged write is then lost from the
     * lineage: the same "every acknowledged write is in the next restore" check catches it.
     */
    @Test
    void withoutTheBucketCheckAStaleCopyLosesAnotherNodesAcknowledgedWrite() throws Exception {
        Path db = evictedCopyOfA();
        ReplicaMetadata honest = ReplicaMetadata.read(db).orElseThrow();
        CellHarness b = fx.activate(r, fx.bucket, "node-b");
        b.sql("INSERT INTO t VALUES ('b1')").get(30, TimeUnit.SECONDS); // acknowledged
        b.close();

        long epoch = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-a");
        var end = honest.lineage().end();
        LineageEnd lie = new LineageEnd(end, null, List.of(new Span(1, 0, end.txid())), 1, 0); // A's view at its detach
        new ReplicaMetadata(Fixture.SCOPE, epoch, true, lie).write(db);
        CellHarness a = fx.harness(db);
        a.attach(r, Fixture.SCOPE, epoch, BucketOwnership.check(fx.bucket, Fixture.SCOPE, "node-a", epoch));
        a.sql("INSERT INTO t VALUES ('a3')").get(30, TimeUnit.SECONDS);

        long next = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-c");
        r.restore(Fixture.SCOPE, next, fx.db("node-c")).get(30, TimeUnit.SECONDS);
        assertThat(CellHarness.dumpFile(fx.db("node-c"))).as("B's acknowledged write").doesNotContain("t:b1|");
    }
}
