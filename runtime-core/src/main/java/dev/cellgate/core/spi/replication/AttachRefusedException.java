package dev.cellgate.core.spi.replication;

/**
 * Attach refused a local database: it cannot be proven to hold exactly the end of the cell's
 * lineage in the bucket. The host deletes the local copy (with its {@code -wal}, {@code -shm} and
 * {@code .replica.json}), restores, and attaches again.
 */
public class AttachRefusedException extends IllegalStateException {
    public AttachRefusedException(String message) {
        super(message);
    }

    public AttachRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
