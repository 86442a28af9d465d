package dev.cellgate.core.spi.js;

/** A storage call refused or failed; the engine surfaces it as a JavaScript {@code Error} with this message. */
public class StorageException extends RuntimeException {
    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
