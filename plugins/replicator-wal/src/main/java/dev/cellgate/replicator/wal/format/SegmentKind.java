package dev.cellgate.replicator.wal.format;

/** What a segment file holds; stored in its header and reflected in its key. */
public enum SegmentKind {
    /** The pages of one upload: the transactions one group commit made durable. */
    L0(0, "l0"),
    /** The merged pages of consecutive l0 segments of one epoch (compaction). */
    L1(1, "l1"),
    /** A slice of a snapshot: the pages [firstPage, firstPage + count) of the database. */
    SNAPSHOT_CHUNK(2, "snap");

    private final int code;
    private final String dir;

    SegmentKind(int code, String dir) {
        this.code = code;
        this.dir = dir;
    }

    public int code() {
        return code;
    }

    public String dir() {
        return dir;
    }

    public static SegmentKind ofCode(int code) {
        for (SegmentKind k : values()) {
            if (k.code == code) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown segment kind " + code);
    }
}
