package dev.cellgate.replicator.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cellgate.core.spi.replication.WalCheckpoint;
import dev.cellgate.replicator.wal.replica.WalCellReplica;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What attach needs of the host's connection, and what replication costs in descriptors. A
 * resident cell's file descriptors bound how many cells a node can hold (the node divides its
 * open-file limit by {@code DescriptorBudget.PER_CELL}). Replication must add none to what the
 * cell's own connection holds (database, WAL, shared memory), between checkpoints and after them.
 */
class HostConnectionTest extends WithFixture {
    @Test
    void anAttachedReplicaHoldsNoDescriptorOfItsOwn() throws Exception {
        Path fdDir = Paths.get("/proc/self/fd");
        assumeTrue(Files.isDirectory(fdDir), "needs /proc/self/fd (Linux)");
        WalReplicator r = fx.replicator(fx.bucket, Fixture.policy().withCheckpointWalBytes(64 * 1024), 64L << 20);
        CellHarness a = fx.activate(r, fx.bucket, "node-a");
        a.sql("CREATE TABLE kv (k INTEGER PRIMARY KEY, v BLOB)").get(30, TimeUnit.SECONDS);
        for (int i = 0; i < 40; i++) { // 40 × 8 KB: the WAL passes the 64 KB checkpoint size several times
            int n = i;
            a.tx(c -> {
                try (PreparedStatement p = c.prepareStatement("INSERT OR REPLACE INTO kv (k, v) VALUES (?, ?)")) {
                    p.setInt(1, n % 7);
                    p.setBytes(2, new byte[8192]);
                    p.executeUpdate();
                }
            }).get(30, TimeUnit.SECONDS);
        }
        settle(a);
        assertThat(Files.size(Path.of(a.db + "-wal"))).as("the WAL was checkpointed along the way").isLessThan(40 * 8192);
        List<String> open = openFilesOf(fdDir, a.db.toRealPath());
        assertThat(open).as("descriptors open on %s", a.db)
                .containsExactlyInAnyOrder(a.db.toRealPath().toString(), a.db.toRealPath() + "-wal", a.db.toRealPath() + "-shm");
    }

    @Test
    void aDatabaseOutsideWalModeIsRefusedAtAttach() throws Exception {
        Path db = fx.db("node-a");
        Files.createDirectories(db.getParent());
        long epoch = BucketOwnership.acquire(fx.bucket, Fixture.SCOPE, "node-a");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode=DELETE");
            s.execute("CREATE TABLE t (v TEXT)");
            assertThatThrownBy(() -> fx.replicator().attach(Fixture.SCOPE, epoch, db, Runnable::run,
                    BucketOwnership.check(fx.bucket, Fixture.SCOPE, "node-a", epoch), WalCheckpoint.through(c)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("is not in WAL mode");
        }
    }

    /** Waits until the replica's background work (uploads, checkpoints) is done. */
    private static void settle(CellHarness a) throws Exception {
        a.onCell(() -> null);
        ((WalCellReplica) a.replica()).maintenanceIdle().get(30, TimeUnit.SECONDS);
        a.onCell(() -> null); // a checkpoint the maintenance queued on the cell's executor
    }

    private static List<String> openFilesOf(Path fdDir, Path db) throws IOException {
        String base = db.toAbsolutePath().toString();
        try (Stream<Path> fds = Files.list(fdDir)) {
            return fds.map(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString();
                } catch (IOException e) {
                    return ""; // closed while listing (e.g. the listing's own descriptor)
                }
            }).filter(target -> target.startsWith(base)).toList();
        }
    }
}
