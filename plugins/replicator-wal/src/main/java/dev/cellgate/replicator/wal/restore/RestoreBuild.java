package dev.cellgate.replicator.wal.restore;

import dev.cellgate.core.spi.replication.RestoreException;
import dev.cellgate.replicator.wal.format.ObjectKey;
import dev.cellgate.replicator.wal.format.PageHash;
import dev.cellgate.replicator.wal.format.Position;
import dev.cellgate.replicator.wal.format.Segment;
import dev.cellgate.replicator.wal.format.SegmentHeader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One restore in progress: the temporary file, the lineage point reached so far, and the chain
 * checks. Snapshot chunks may be written concurrently (disjoint page runs); segments are applied
 * one at a time, in txid order.
 */
final class RestoreBuild {
    final String scope;
    final RestorePlan plan;
    final Path dbFile;
    final Path tmp;
    final AtomicInteger objects = new AtomicInteger();
    final AtomicLong bytes = new AtomicLong();
    long segmentBytes;
    private FileChannel ch;
    private Position at = Position.empty();
    private volatile int pageSize;

    RestoreBuild(String scope, RestorePlan plan, Path dbFile) {
        this.scope = scope;
        this.plan = plan;
        this.dbFile = dbFile;
        this.tmp = dbFile.resolveSibling(dbFile.getFileName() + ".restoring-" + Long.toHexString(System.nanoTime()));
    }

    void open() throws IOException {
        Files.createDirectories(tmp.toAbsolutePath().getParent());
        ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        if (plan.manifest() == null) {
            checkPin(); // the lineage starts from an empty database: the pin may be right there
        }
    }

    void counted(int n) {
        objects.incrementAndGet();
        bytes.addAndGet(n);
    }

    void writeChunk(Segment s) {
        int ps = pageSize(s.header().pageSize(), "snapshot chunk");
        try {
            for (int i = 0; i < s.pageCount(); i++) {
                writeFully(ByteBuffer.wrap(s.raw(), s.dataOffset(i), ps), (long) (s.pgno(i) - 1) * ps);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The snapshot is fully written: the lineage continues from its position. */
    void startAt(Position snapshot) {
        if (snapshot.pages() > 0 && snapshot.pageSize() != pageSize) {
            throw new RestoreException("cell " + scope + ": snapshot page size " + snapshot.pageSize() + " differs from its chunks' " + pageSize);
        }
        at = snapshot;
        checkPin();
    }

    void apply(ObjectKey key, Segment s) {
        SegmentHeader h = s.header();
        String what = SegmentChecks.describe(key);
        int ps = pageSize(h.pageSize(), what);
        if (h.minTxid() != at.txid() + 1 || h.preChecksum() != at.checksum()) {
            throw new RestoreException("cell " + scope + ": " + what + " (" + key.key() + ") does not continue the lineage: it starts"
                    + " after txid " + (h.minTxid() - 1) + " from checksum " + PageHash.hex(h.preChecksum())
                    + ", the lineage is at " + at);
        }
        try {
            long size = ch.size();
            long low = (long) h.lowPages() * ps;
            if (low < size) {
                ch.truncate(low);
            }
            for (int i = 0; i < s.pageCount(); i++) {
                writeFully(ByteBuffer.wrap(s.raw(), s.dataOffset(i), ps), (long) (s.pgno(i) - 1) * ps);
            }
            resize((long) h.commitPages() * ps);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        segmentBytes += s.raw().length;
        at = new Position(key.epoch(), h.maxTxid(), h.postChecksum(), h.commitPages(), ps);
        checkPin();
    }

    /** Makes the file durable and returns the lineage point it holds. */
    Position close() throws IOException {
        resize((long) at.pages() * Math.max(pageSize, 1));
        ch.force(true);
        ch.close();
        return at;
    }

    void discard() {
        try {
            if (ch != null) {
                ch.close();
            }
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            // Best effort: the name is unique and never taken for a database.
        }
    }

    private void checkPin() {
        if (plan.pinCheckTxid() >= 0 && at.txid() == plan.pinCheckTxid()
                && (at.checksum() != plan.base().parent().checksum() || at.pages() != plan.base().parent().pages())) {
            throw new RestoreException("cell " + scope + ": at txid " + at.txid() + " the lineage holds " + at
                    + " but the pin of e" + plan.tip() + " continues from " + plan.base().parent());
        }
    }

    private int pageSize(int ps, String what) {
        synchronized (this) {
            if (pageSize == 0) {
                pageSize = ps;
            } else if (pageSize != ps) {
                throw new RestoreException("cell " + scope + ": " + what + " has page size " + ps + ", the lineage " + pageSize);
            }
            return ps;
        }
    }

    private void resize(long target) throws IOException {
        long size = ch.size();
        if (size > target) {
            ch.truncate(target);
        } else if (size < target) {
            writeFully(ByteBuffer.wrap(new byte[1]), target - 1);
        }
    }

    private void writeFully(ByteBuffer b, long pos) throws IOException {
        while (b.hasRemaining()) {
            pos += ch.write(b, pos);
        }
    }
}
