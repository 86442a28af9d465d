package dev.cellgate.replicator.wal.format;

/**
 * A decoded segment: its header and its page records, kept in the downloaded buffer (no copy
 * per page). Page {@code i} is page number {@link #pgno(int)} with its bytes at
 * {@link #dataOffset(int)} in {@link #raw()}.
 */
public final class Segment {
    private final SegmentHeader header;
    private final byte[] raw;
    private final int[] pgnos;

    Segment(SegmentHeader header, byte[] raw, int[] pgnos) {
        this.header = header;
        this.raw = raw;
        this.pgnos = pgnos;
    }

    public SegmentHeader header() {
        return header;
    }

    public byte[] raw() {
        return raw;
    }

    public int pageCount() {
        return pgnos.length;
    }

    public int pgno(int i) {
        return pgnos[i];
    }

    public int dataOffset(int i) {
        return SegmentCodec.HEADER_BYTES + i * (4 + header.pageSize()) + 4;
    }

    /** XOR of the hashes of the pages it holds (for snapshot chunks: must equal the header's postChecksum). */
    public long pagesChecksum() {
        long x = 0;
        for (int i = 0; i < pgnos.length; i++) {
            x ^= PageHash.of(pgnos[i], raw, dataOffset(i), header.pageSize());
        }
        return x;
    }
}
