package dev.cellgate.replicator.wal.format;

/**
 * One parsed key of a cell's lineage.
 *
 * @param minTxid   first transaction a segment holds; the snapshot's txid for manifests and chunks
 * @param maxTxid   last transaction a segment holds; the snapshot's txid for manifests and chunks
 * @param firstPage first page of a snapshot chunk, else 0
 */
public record ObjectKey(String key, long epoch, Type type, long minTxid, long maxTxid, long firstPage) {

    public enum Type { BASE, L0, L1, MANIFEST, CHUNK }

    public boolean isSegment() {
        return type == Type.L0 || type == Type.L1;
    }
}
