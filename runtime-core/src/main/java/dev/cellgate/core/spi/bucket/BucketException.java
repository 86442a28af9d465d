package dev.cellgate.core.spi.bucket;

/** A read or listing that failed, or a store that cannot be opened. Carries the store URL in its message. */
public class BucketException extends RuntimeException {
    public BucketException(String message) {
        super(message);
    }

    public BucketException(String message, Throwable cause) {
        super(message, cause);
    }
}
