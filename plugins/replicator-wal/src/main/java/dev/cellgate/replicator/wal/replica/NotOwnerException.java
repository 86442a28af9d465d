package dev.cellgate.replicator.wal.replica;

/** The ownership check after an upload said another node owns the cell now: the commits are not acknowledged (their outcome is unknown). */
public class NotOwnerException extends IllegalStateException {
    public NotOwnerException(String message) {
        super(message);
    }
}
