package dev.cellgate.replicator.wal.format;

/**
 * The fixed fields of a segment file (see the module README for the byte layout).
 *
 * @param scopeTag     first 8 bytes of SHA-256 of the cell scope: a segment copied under another cell is refused
 * @param epoch        the epoch whose owner wrote it (must match its key)
 * @param pageSize     database page size in bytes
 * @param commitPages  database size in pages after applying (snapshot chunk: the snapshot's size)
 * @param lowPages     smallest size in pages the database had while these transactions ran: a restore
 *                     truncates to it before writing the pages (snapshot chunk: its first page)
 * @param minTxid      first transaction covered (snapshot chunk: the snapshot's txid)
 * @param maxTxid      last transaction covered (snapshot chunk: the snapshot's txid)
 * @param preChecksum  database checksum before (snapshot chunk: 0)
 * @param postChecksum database checksum after (snapshot chunk: XOR of its pages' hashes)
 */
public record SegmentHeader(SegmentKind kind, long scopeTag, long epoch, int pageSize, int commitPages, int lowPages,
                            long minTxid, long maxTxid, long preChecksum, long postChecksum) {

    public String describeRange() {
        return kind == SegmentKind.SNAPSHOT_CHUNK
                ? "snapshot txid " + minTxid + " pages " + lowPages + ".."
                : "txids " + minTxid + ".." + maxTxid;
    }
}
