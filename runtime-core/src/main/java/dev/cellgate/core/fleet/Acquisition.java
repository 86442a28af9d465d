package dev.cellgate.core.fleet;

/** The outcome of trying to acquire a cell. */
public sealed interface Acquisition {

    /** This node owns the cell at {@code epoch}; {@code version} is the ownership record's, for the release CAS. */
    record Acquired(long epoch, String version, long previousEpoch) implements Acquisition {
    }

    /** A live other node owns it. */
    record OwnedElsewhere(String node) implements Acquisition {
    }

    /** Not decidable now (malformed record, lost races past the retry bound, bucket errors): retryable. */
    record Unavailable(String reason) implements Acquisition {
    }
}
