package dev.cellgate.replicator.wal.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.store.file.FileBucketStore;
import dev.cellgate.replicator.wal.bucket.DurableWrites;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.Position;
import dev.cellgate.replicator.wal.format.SnapshotManifest;
import dev.cellgate.replicator.wal.sqlite.DbImage;
import dev.cellgate.replicator.wal.sqlite.WalException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snapshot's safety net: pages read from the file must add up to what the replicator shipped. */
class SnapshotWriterTest {
    @TempDir
    Path tmp;

    @Test
    void aFileThatMatchesTheShippedChecksumIsChunkedAndOneThatDoesNotStopsTheReplica() throws Exception {
        Path db = tmp.resolve("c.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.createStatement().execute("CREATE TABLE t (v BLOB)");
            c.createStatement().execute("INSERT INTO t VALUES (randomblob(300000))");
        }
        DbImage image = DbImage.scan(db);
        FileBucketStore store = new FileBucketStore("file://" + tmp.resolve("b"), tmp.resolve("b"), false);
        SnapshotWriter w = new SnapshotWriter(new LineageKeys("C:1"), 3, new DurableWrites(store),
                ForkJoinPool.commonPool(), 65536, 4);

        Position right = new Position(3, 9, image.checksum(), image.pages(), image.pageSize());
        SnapshotManifest m = w.writeChunks(db, right, () -> false).get(30, TimeUnit.SECONDS);
        assertThat(m.chunks()).hasSize((image.pages() * image.pageSize() + 65535) / 65536);

        Position shippedSomethingElse = new Position(3, 10, image.checksum() ^ 1, image.pages(), image.pageSize());
        assertThatThrownBy(() -> w.writeChunks(db, shippedSomethingElse, () -> false).get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(WalException.class)
                .hasMessageContaining("the replica diverged");
        store.close();
    }
}
