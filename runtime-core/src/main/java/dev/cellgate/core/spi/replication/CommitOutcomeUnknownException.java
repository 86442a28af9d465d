package dev.cellgate.core.spi.replication;

/**
 * A commit failed after the upload that carries it had started: its data may be in the bucket
 * (the segment landed, then the ownership check said no or gave no answer; or the upload's own
 * answer was lost), so a later restore may or may not contain it. The host must not tell the
 * caller "not durable, retry", only that the outcome is unknown. A failed commit future without
 * this exception never left the node.
 */
public class CommitOutcomeUnknownException extends RuntimeException {
    public CommitOutcomeUnknownException(String message, Throwable cause) {
        super(message, cause);
    }
}
