package dev.cellgate.replicator.wal.format;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.SortedMap;
import java.util.zip.CRC32C;

/**
 * Encodes and decodes segment files: an 80-byte header, page records sorted by page number
 * ({@code u32 pgno} then the page), and a CRC32C of everything before it. Big-endian throughout.
 */
public final class SegmentCodec {
    static final int HEADER_BYTES = 80;
    private static final int MAGIC = 0x43475753; // "CGWS"
    private static final int VERSION = 1;

    private SegmentCodec() {
    }

    public static byte[] encode(SegmentHeader h, SortedMap<Integer, byte[]> pages) {
        int ps = h.pageSize();
        long size = (long) HEADER_BYTES + (long) pages.size() * (4 + ps) + 4;
        if (size > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("segment of " + pages.size() + " pages is too large for one object");
        }
        ByteBuffer b = ByteBuffer.allocate((int) size);
        b.putInt(MAGIC).putShort((short) VERSION).putShort((short) h.kind().code())
                .putInt(ps).putInt(h.commitPages()).putInt(h.lowPages()).putInt(pages.size())
                .putLong(h.scopeTag()).putLong(h.epoch()).putLong(h.minTxid()).putLong(h.maxTxid())
                .putLong(h.preChecksum()).putLong(h.postChecksum()).putLong(0L);
        for (Map.Entry<Integer, byte[]> e : pages.entrySet()) {
            if (e.getValue().length != ps) {
                throw new IllegalArgumentException("page " + e.getKey() + " has " + e.getValue().length + " bytes, page size is " + ps);
            }
            b.putInt(e.getKey()).put(e.getValue());
        }
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.putInt((int) crc.getValue());
        return b.array();
    }

    /** Decodes and verifies the CRC and the page list; throws {@link SegmentFormatException} naming the fault. */
    public static Segment decode(byte[] raw) {
        if (raw.length < HEADER_BYTES + 4) {
            throw new SegmentFormatException("truncated: " + raw.length + " bytes, shorter than a header");
        }
        ByteBuffer b = ByteBuffer.wrap(raw);
        if (b.getInt() != MAGIC) {
            throw new SegmentFormatException("not a segment (bad magic)");
        }
        int version = b.getShort();
        if (version != VERSION) {
            throw new SegmentFormatException("unsupported segment format version " + version);
        }
        SegmentKind kind;
        try {
            kind = SegmentKind.ofCode(b.getShort());
        } catch (IllegalArgumentException e) {
            throw new SegmentFormatException(e.getMessage());
        }
        int ps = b.getInt();
        int commitPages = b.getInt();
        int lowPages = b.getInt();
        int count = b.getInt();
        if (ps < 512 || ps > 65536 || Integer.bitCount(ps) != 1 || count < 0) {
            throw new SegmentFormatException("bad header (page size " + ps + ", " + count + " pages)");
        }
        long expected = (long) HEADER_BYTES + (long) count * (4 + ps) + 4;
        if (raw.length != expected) {
            throw new SegmentFormatException((raw.length < expected ? "truncated" : "trailing bytes") + ": "
                    + raw.length + " bytes, header announces " + expected);
        }
        CRC32C crc = new CRC32C();
        crc.update(raw, 0, raw.length - 4);
        if ((int) crc.getValue() != ByteBuffer.wrap(raw, raw.length - 4, 4).getInt()) {
            throw new SegmentFormatException("CRC32C mismatch (corrupted bytes)");
        }
        SegmentHeader h = new SegmentHeader(kind, b.getLong(), b.getLong(), ps, commitPages, lowPages,
                b.getLong(), b.getLong(), b.getLong(), b.getLong());
        int[] pgnos = new int[count];
        int prev = 0;
        for (int i = 0; i < count; i++) {
            int pg = b.getInt(HEADER_BYTES + i * (4 + ps));
            if (pg <= prev) {
                throw new SegmentFormatException("page numbers not ascending at record " + i);
            }
            prev = pg;
            pgnos[i] = pg;
        }
        if (kind != SegmentKind.SNAPSHOT_CHUNK && (prev > commitPages || lowPages > commitPages)) {
            throw new SegmentFormatException("page " + prev + " or low size " + lowPages + " beyond the commit size " + commitPages);
        }
        if (kind == SegmentKind.SNAPSHOT_CHUNK && count > 0
                && (pgnos[0] != lowPages || prev != lowPages + count - 1 || prev > commitPages)) {
            throw new SegmentFormatException("snapshot chunk pages are not the contiguous run it announces");
        }
        return new Segment(h, raw, pgnos);
    }

    /** First 8 bytes of SHA-256 of the scope. */
    public static long scopeTag(String scope) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(scope.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(d).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
