package dev.cellgate.replicator.wal.sqlite;

/** The WAL file changed in a way the replicator did not cause: frames may have been lost, so it stops. */
public class WalException extends RuntimeException {
    public WalException(String message) {
        super(message);
    }

    public WalException(String message, Throwable cause) {
        super(message, cause);
    }
}
