package dev.cellgate.replicator.wal.sqlite;

import dev.cellgate.replicator.wal.format.PageHash;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;

/**
 * The replicator's model of a database: one 64-bit hash per page and their XOR, the database
 * checksum. It follows the transactions the replicator ships, so every segment can carry the
 * checksum before and after it, and a snapshot or a kept local file can be compared with what the
 * bucket holds. 8 bytes per page: 200 KB for a 100 MB database of 4 KB pages.
 */
public final class DbImage {
    private int pageSize;
    private int pages;
    private long[] hashes;
    private long checksum;

    private DbImage(int pageSize, long[] hashes, int pages) {
        this.pageSize = pageSize;
        this.hashes = hashes;
        this.pages = pages;
        long x = 0;
        for (int i = 0; i < pages; i++) {
            x ^= hashes[i];
        }
        this.checksum = x;
    }

    public static DbImage empty() {
        return new DbImage(0, new long[16], 0);
    }

    /** Hashes every page of a database file (which must hold whole pages of the size its header names). */
    public static DbImage scan(Path db) throws IOException {
        try (FileChannel ch = FileChannel.open(db, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) {
                return empty();
            }
            ByteBuffer hdr = ByteBuffer.allocate(100);
            ch.read(hdr, 0);
            int ps = pageSizeFromHeader(hdr.array(), db);
            if (size % ps != 0 || size / ps > Integer.MAX_VALUE) {
                throw new IOException("database " + db + " is " + size + " bytes, not a whole number of " + ps + "-byte pages");
            }
            int n = (int) (size / ps);
            long[] h = new long[Math.max(16, n)];
            int perBlock = Math.max(1, (1 << 20) / ps);
            ByteBuffer block = ByteBuffer.allocate(perBlock * ps);
            for (int first = 1; first <= n; first += perBlock) {
                int count = Math.min(perBlock, n - first + 1);
                block.clear().limit(count * ps);
                long pos = (long) (first - 1) * ps;
                while (block.hasRemaining()) {
                    if (ch.read(block, pos + block.position()) < 0) {
                        throw new IOException("database " + db + " shrank while being read");
                    }
                }
                for (int i = 0; i < count; i++) {
                    h[first - 1 + i] = PageHash.of(first + i, block.array(), i * ps, ps);
                }
            }
            return new DbImage(ps, h, n);
        }
    }

    static int pageSizeFromHeader(byte[] header, Path db) throws IOException {
        if (!new String(header, 0, 15, java.nio.charset.StandardCharsets.US_ASCII).equals("SQLite format 3")) {
            throw new IOException("database " + db + " has no SQLite header");
        }
        int v = ((header[16] & 0xff) << 8) | (header[17] & 0xff);
        int ps = v == 1 ? 65536 : v;
        if (ps < 512 || Integer.bitCount(ps) != 1) {
            throw new IOException("database " + db + " names an invalid page size " + v);
        }
        return ps;
    }

    /**
     * Applies one committed transaction. Pages beyond the new size are dropped; pages the file grew
     * over without the transaction writing them are zero pages. Returns the smallest size the
     * database had during the transaction (what a restore truncates to before writing the pages).
     */
    public int apply(WalTxn t) {
        if (pageSize == 0) {
            pageSize = t.pageSize();
        } else if (pageSize != t.pageSize()) {
            throw new WalException("page size changed from " + pageSize + " to " + t.pageSize());
        }
        int before = pages;
        int after = t.commitPages();
        for (int pg = after + 1; pg <= before; pg++) {
            checksum ^= hashes[pg - 1];
        }
        if (after > hashes.length) {
            hashes = Arrays.copyOf(hashes, Math.max(after, hashes.length * 2));
        }
        for (int pg = before + 1; pg <= after; pg++) {
            hashes[pg - 1] = t.pages().containsKey(pg) ? 0 : PageHash.ofZeroPage(pg, pageSize);
            checksum ^= hashes[pg - 1];
        }
        pages = after;
        for (Map.Entry<Integer, byte[]> e : t.pages().entrySet()) {
            int pg = e.getKey();
            if (pg <= after) {
                long h = PageHash.of(pg, e.getValue());
                checksum ^= hashes[pg - 1] ^ h;
                hashes[pg - 1] = h;
            }
        }
        return Math.min(before, after);
    }

    public int pageSize() {
        return pageSize;
    }

    public int pages() {
        return pages;
    }

    public long checksum() {
        return checksum;
    }
}
