package dev.cellgate.sim;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.replicator.wal.bucket.BucketReads;
import dev.cellgate.replicator.wal.format.LineageEnd;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.ReplicaMetadata;
import dev.cellgate.replicator.wal.restore.DatabaseRestorer;
import dev.cellgate.replicator.wal.restore.PinRule;
import dev.cellgate.replicator.wal.sqlite.DbImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A simulated cell's database: one page that carries the SQLite header (so the real restore can
 * scan the rebuilt file) and the {@link CellState} after it. Written through the real replication
 * ({@code SimReplica}) and read back by the REAL {@link DatabaseRestorer}: listing, the lineage
 * planner with its pin rule, the segment and checksum checks, the rebuilt file and its metadata.
 */
final class SimDatabase {
    static final int PAGE_SIZE = 4096;
    private static final int HEADER = 100;
    private static final AtomicLong FILES = new AtomicLong();
    /** tmpfs when there is one: a seed restores dozens of small files. */
    private static final Path ROOT = tempDir();

    /** What a restore gave: the state, the lineage end the next pin continues from, and the page hashes. */
    record Restored(CellState state, LineageEnd lineage, DbImage image) {
    }

    private SimDatabase() {
    }

    /** Page 1 holding {@code state}. */
    static SortedMap<Integer, byte[]> pages(CellState state) {
        byte[] s = state.encode();
        if (s.length + 1 > PAGE_SIZE - HEADER) {
            throw new IllegalStateException("simulated cell state of " + s.length + " bytes outgrew its page");
        }
        byte[] page = new byte[PAGE_SIZE];
        byte[] magic = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(magic, 0, page, 0, magic.length);
        page[16] = (byte) (PAGE_SIZE >> 8);
        page[17] = (byte) PAGE_SIZE;
        System.arraycopy(s, 0, page, HEADER, s.length);
        TreeMap<Integer, byte[]> pages = new TreeMap<>();
        pages.put(1, page);
        return pages;
    }

    /**
     * Restores {@code scope} for an owner at {@code epoch} with the real restorer: its listing, plan
     * and reads go through {@code store}, so the bucket's faults reach them.
     */
    static CompletableFuture<Restored> restore(Path dir, BucketStore store, String scope, long epoch, PinRule pins) {
        Path db = dir.resolve("cell-" + FILES.incrementAndGet() + ".db");
        DatabaseRestorer restorer = new DatabaseRestorer(new LineageKeys(scope), new BucketReads(store), Runnable::run, 4, pins);
        return restorer.restore(epoch, db).handle((r, e) -> {
            try {
                if (e != null) {
                    throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
                }
                return read(db);
            } finally {
                cleanUp(db);
            }
        });
    }

    private static Restored read(Path db) {
        try {
            if (!Files.exists(db)) {
                return new Restored(new CellState(), LineageEnd.empty(), DbImage.empty()); // a new cell
            }
            LineageEnd lineage = ReplicaMetadata.read(db).orElseThrow(
                    () -> new IllegalStateException("restored " + db + " without its metadata")).lineage();
            byte[] page = Arrays.copyOf(Files.readAllBytes(db), PAGE_SIZE);
            int end = HEADER;
            while (end < PAGE_SIZE && page[end] != 0) {
                end++;
            }
            return new Restored(CellState.decode(Arrays.copyOfRange(page, HEADER, end)), lineage, DbImage.scan(db));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void cleanUp(Path db) {
        try {
            ReplicaMetadata.delete(db);
            Files.deleteIfExists(db);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A directory for one run's restores. A process that crashes mid-restore never completes it, so
     * its temporary file stays: the run deletes the directory when it ends ({@link #deleteRunDir}).
     */
    static Path newRunDir() {
        try {
            return Files.createTempDirectory(ROOT, "run-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteRunDir(Path dir) {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path tempDir() {
        try {
            Path shm = Path.of("/dev/shm");
            Path d = Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "cellgate-sim-")
                    : Files.createTempDirectory("cellgate-sim-");
            d.toFile().deleteOnExit();
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
