package dev.cellgate.replicator.wal.format;

/**
 * One parsed key of a cell's lineage.
 *
 * @param minTxid   first transaction a segment holds; the snapshot's txid for manifests and chunks
 * @param maxTxid   last transaction a segment holds; the snapshot's txid for manifests and chunks
 * @param firstPage first page of a snapshot chunk, else 0
 * @param timeMs    when a segment's commits became durable, or {@link LineageKeys#NO_TIME}: a pin, a
 *                  snapshot object, or a segment written before keys named their time
 */
public record ObjectKey(String key, long epoch, Type type, long minTxid, long maxTxid, long firstPage, long timeMs) {

    public enum Type { BASE, L0, L1, MANIFEST, CHUNK }

    public boolean timed() {
        return timeMs != LineageKeys.NO_TIME;
    }

    public boolean isSegment() {
        return type == Type.L0 || type == Type.L1;
    }
}
