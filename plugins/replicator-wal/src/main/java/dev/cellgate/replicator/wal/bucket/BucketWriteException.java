package dev.cellgate.replicator.wal.bucket;

/** A lineage object could not be made durable (retries exhausted, or the key holds other content). */
public class BucketWriteException extends RuntimeException {
    public BucketWriteException(String message) {
        super(message);
    }
}
