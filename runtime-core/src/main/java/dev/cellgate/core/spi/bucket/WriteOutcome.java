package dev.cellgate.core.spi.bucket;

/**
 * What a bucket write did. Three values, because a timeout or a server error does not tell
 * whether the write happened: treating that case as either success or failure is how two nodes
 * end up owning one cell.
 */
public sealed interface WriteOutcome {

    /** The write happened; {@code version} names the new object. */
    record Written(String version) implements WriteOutcome {
    }

    /** A precondition failed cleanly (412, 409, the object exists, the version differs): nothing was written. */
    record Rejected(String reason) implements WriteOutcome {
    }

    /** The write may or may not have happened (timeout, 5xx, I/O error): re-read to reconcile. */
    record Ambiguous(String reason, Throwable cause) implements WriteOutcome {
    }

    default boolean written() {
        return this instanceof Written;
    }

    default String versionOrNull() {
        return this instanceof Written w ? w.version() : null;
    }
}
