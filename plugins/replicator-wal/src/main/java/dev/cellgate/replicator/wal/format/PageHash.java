package dev.cellgate.replicator.wal.format;

import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * The 64-bit hash of one database page, and the database checksum built from it.
 *
 * <p>A page hash is {@code CRC32C(pgno ‖ page) << 32 | CRC32(pgno ‖ page)} with {@code pgno}
 * as 4 big-endian bytes: two independent CRCs that the JVM computes with CPU instructions, so a
 * 100 MB database hashes in tens of milliseconds. The database checksum is the XOR of the
 * hashes of all its pages (an empty database has checksum 0). XOR lets the replicator keep the
 * checksum current page by page: replacing a page XORs out the old hash and XORs in the new one.
 */
public final class PageHash {
    private PageHash() {
    }

    public static long of(int pgno, byte[] page, int off, int len) {
        byte[] no = {(byte) (pgno >>> 24), (byte) (pgno >>> 16), (byte) (pgno >>> 8), (byte) pgno};
        CRC32C c = new CRC32C();
        c.update(no, 0, 4);
        c.update(page, off, len);
        CRC32 d = new CRC32();
        d.update(no, 0, 4);
        d.update(page, off, len);
        return (c.getValue() << 32) | d.getValue();
    }

    public static long of(int pgno, byte[] page) {
        return of(pgno, page, 0, page.length);
    }

    /** Hash of an all-zero page: what a page the file grew over without writing holds. */
    public static long ofZeroPage(int pgno, int pageSize) {
        return of(pgno, new byte[pageSize]);
    }

    public static String hex(long checksum) {
        return String.format("%016x", checksum);
    }

    public static long parseHex(String hex) {
        if (hex == null || hex.length() != 16) {
            throw new IllegalArgumentException("checksum must be 16 hex digits, got '" + hex + "'");
        }
        return Long.parseUnsignedLong(hex, 16);
    }
}
