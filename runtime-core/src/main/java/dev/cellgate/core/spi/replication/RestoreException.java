package dev.cellgate.core.spi.replication;

/** A lineage that cannot be restored whole: a missing range or a checksum failure. Names the cell and the range. */
public class RestoreException extends RuntimeException {
    public RestoreException(String message) {
        super(message);
    }

    public RestoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
