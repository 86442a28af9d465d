package dev.cellgate.core.spi.replication;

/**
 * @param epoch           the epoch whose lineage was restored, 0 when the cell has no data
 * @param objectsRead     bucket objects read
 * @param bytesRead       bytes downloaded
 * @param databaseBytes   size of the rebuilt database file
 */
public record RestoreResult(long epoch, int objectsRead, long bytesRead, long databaseBytes) {
    public static RestoreResult empty() {
        return new RestoreResult(0, 0, 0, 0);
    }

    public boolean hasData() {
        return epoch > 0;
    }
}
