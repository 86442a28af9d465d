package dev.cellgate.replicator.wal.replica;

import dev.cellgate.core.async.AsyncLimiter;
import dev.cellgate.replicator.wal.bucket.DurableWrites;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.PageHash;
import dev.cellgate.replicator.wal.format.Position;
import dev.cellgate.replicator.wal.format.SegmentCodec;
import dev.cellgate.replicator.wal.format.SegmentHeader;
import dev.cellgate.replicator.wal.format.SegmentKind;
import dev.cellgate.replicator.wal.format.SnapshotManifest;
import dev.cellgate.replicator.wal.sqlite.WalException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * Writes the chunks of a snapshot from the database file, which holds exactly the snapshot's
 * position while checkpoints are paused. Chunks are read and uploaded in parallel. The pages read
 * must add up to the checksum the replicator computed from the WAL: if they do not, what was
 * shipped differs from the database and the replica stops ({@link WalException}).
 */
final class SnapshotWriter {
    private final String scope;
    private final long epoch;
    private final LineageKeys keys;
    private final DurableWrites writes;
    private final Executor io;
    private final int chunkBytes;
    private final int parallelism;

    SnapshotWriter(LineageKeys keys, long epoch, DurableWrites writes, Executor io, int chunkBytes, int parallelism) {
        this.scope = keys.scope();
        this.epoch = epoch;
        this.keys = keys;
        this.writes = writes;
        this.io = io;
        this.chunkBytes = chunkBytes;
        this.parallelism = parallelism;
    }

    /** Uploads every chunk; returns the manifest to write once the snapshot's transactions are durable. */
    CompletableFuture<SnapshotManifest> writeChunks(Path dbFile, Position at, BooleanSupplier cancelled) {
        int ps = at.pageSize();
        int perChunk = Math.max(1, chunkBytes / ps);
        List<int[]> ranges = new ArrayList<>();
        for (int first = 1; first <= at.pages(); first += perChunk) {
            ranges.add(new int[] {first, Math.min(perChunk, at.pages() - first + 1)});
        }
        FileChannel ch;
        try {
            ch = FileChannel.open(dbFile, StandardOpenOption.READ);
            if (ch.size() != (long) at.pages() * ps) {
                long size = ch.size();
                ch.close();
                return CompletableFuture.failedFuture(new WalException("cell " + scope + ": database file is " + size
                        + " bytes after a full checkpoint, the replicated image has " + at.pages() + " pages of " + ps));
            }
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new UncheckedIOException(e));
        }
        long[] sums = new long[ranges.size()];
        List<Integer> indexes = java.util.stream.IntStream.range(0, ranges.size()).boxed().toList();
        CompletableFuture<List<SnapshotManifest.Chunk>> chunks = AsyncLimiter.map(indexes, parallelism, idx -> {
            int[] r = ranges.get(idx);
            return CompletableFuture.supplyAsync(() -> {
                if (cancelled.getAsBoolean()) {
                    throw new java.util.concurrent.CancellationException("replica detached");
                }
                return encodeChunk(ch, at, r[0], r[1], sums, idx);
            }, io).thenCompose(bytes -> {
                String key = keys.snapshotChunk(epoch, at.txid(), r[0]);
                return writes.create(key, bytes).thenApply(x -> new SnapshotManifest.Chunk(key, r[0], r[1], bytes.length));
            });
        });
        return chunks.whenComplete((x, err) -> close(ch)).thenApply(list -> {
            long total = 0;
            for (long s : sums) {
                total ^= s;
            }
            if (total != at.checksum()) {
                throw new WalException("cell " + scope + ": the database file at txid " + at.txid() + " has checksum "
                        + PageHash.hex(total) + " but the shipped WAL frames add up to " + PageHash.hex(at.checksum())
                        + ": the replica diverged from the database");
            }
            return new SnapshotManifest(scope, epoch, at, list);
        });
    }

    private byte[] encodeChunk(FileChannel ch, Position at, int first, int count, long[] sums, int idx) {
        int ps = at.pageSize();
        ByteBuffer buf = ByteBuffer.allocate(count * ps);
        try {
            long pos = (long) (first - 1) * ps;
            while (buf.hasRemaining()) {
                if (ch.read(buf, pos + buf.position()) < 0) {
                    throw new IOException("database file ended at page " + (first + buf.position() / ps));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        TreeMap<Integer, byte[]> pages = new TreeMap<>();
        long sum = 0;
        for (int i = 0; i < count; i++) {
            byte[] p = java.util.Arrays.copyOfRange(buf.array(), i * ps, (i + 1) * ps);
            sum ^= PageHash.of(first + i, p);
            pages.put(first + i, p);
        }
        sums[idx] = sum;
        return SegmentCodec.encode(new SegmentHeader(SegmentKind.SNAPSHOT_CHUNK, SegmentCodec.scopeTag(scope), epoch, ps,
                at.pages(), first, at.txid(), at.txid(), 0, sum), pages);
    }

    private static void close(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // read-only channel: nothing to lose
        }
    }
}
