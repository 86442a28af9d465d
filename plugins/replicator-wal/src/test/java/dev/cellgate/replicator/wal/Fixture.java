package dev.cellgate.replicator.wal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.replication.ReplicatorConfig;
import dev.cellgate.core.spi.replication.RestoreResult;
import dev.cellgate.core.store.file.FileBucketStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A temp directory with a real file bucket, an I/O pool and helpers shared by the replication tests. */
final class Fixture implements AutoCloseable {
    static final String SCOPE = "Counter:" + "ab".repeat(32);

    final Path dir;
    final FileBucketStore bucket;
    final ExecutorService io = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "replica-io");
        t.setDaemon(true);
        return t;
    });
    private final List<AutoCloseable> closeables = new ArrayList<>();

    Fixture(Path dir) {
        this.dir = dir;
        this.bucket = new FileBucketStore("file://" + dir.resolve("bucket"), dir.resolve("bucket"), false);
    }

    static WalPolicy policy() {
        return WalPolicy.defaults();
    }

    WalReplicator replicator(BucketStore store, WalPolicy policy, long snapshotEveryBytes) {
        return new WalReplicator(new ReplicatorConfig(store, io, snapshotEveryBytes), policy);
    }

    /** With point-in-time recovery: history kept for {@code retentionMs} on {@code clock}. */
    WalReplicator replicator(WalPolicy policy, long snapshotEveryBytes, long retentionMs, java.util.function.LongSupplier clock) {
        return new WalReplicator(new ReplicatorConfig(bucket, io, snapshotEveryBytes, retentionMs, clock), policy);
    }

    WalReplicator replicator() {
        return replicator(bucket, policy(), 64L << 20);
    }

    Path db(String node) {
        return dir.resolve(node).resolve("cell.db");
    }

    CellHarness harness(Path db) throws Exception {
        CellHarness h = CellHarness.open(db);
        closeables.add(h);
        return h;
    }

    /** Acquires the cell for {@code node}, restores if needed, opens and attaches: a node's activation. */
    CellHarness activate(WalReplicator r, BucketStore store, String node) throws Exception {
        long epoch = BucketOwnership.acquire(bucket, SCOPE, node);
        Path db = db(node);
        CellHarness.deleteLocal(db);
        RestoreResult res = r.restore(SCOPE, epoch, db).get(60, TimeUnit.SECONDS);
        assertThat(Files.exists(db)).isEqualTo(res.hasData());
        CellHarness h = harness(db);
        h.attach(r, SCOPE, epoch, BucketOwnership.check(bucket, SCOPE, node, epoch));
        return h;
    }

    /** An activation whose restore brings back {@code target} instead of the newest state. */
    CellHarness activateAt(WalReplicator r, String node, dev.cellgate.core.logic.Bookmark target) throws Exception {
        long epoch = BucketOwnership.acquire(bucket, SCOPE, node);
        Path db = db(node);
        CellHarness.deleteLocal(db);
        r.restoreTo(SCOPE, epoch, db, target).get(60, TimeUnit.SECONDS);
        CellHarness h = harness(db);
        h.attach(r, SCOPE, epoch, BucketOwnership.check(bucket, SCOPE, node, epoch));
        return h;
    }

    List<String> keys(String prefix) throws Exception {
        List<String> all = new ArrayList<>();
        String cursor = null;
        do {
            var page = bucket.list(prefix, cursor, 1000).get(30, TimeUnit.SECONDS);
            all.addAll(page.keys());
            cursor = page.nextCursor();
        } while (cursor != null);
        return all;
    }

    List<String> lineageKeys() throws Exception {
        return keys("cells/" + SCOPE + "/wal/");
    }

    /** Files next to a database other than the database family itself (restore leftovers). */
    static List<String> strayFiles(Path db) throws Exception {
        if (!Files.isDirectory(db.getParent())) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(db.getParent())) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.contains(".restoring-")).toList();
        }
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (Exception e) {
                // already closed by the test
            }
        }
        io.shutdownNow();
        bucket.close();
    }
}
