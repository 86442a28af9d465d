package dev.cellgate.core.cell;

import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.spi.js.OutcomeUnknownException;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.replication.CommitOutcomeUnknownException;

/**
 * What the caller of an event is told when the output gate for its result failed. When the write
 * behind the result may be in the bucket all the same (its upload had started: the replicator says
 * {@link CommitOutcomeUnknownException}), the outcome is unknown and the error is not retryable,
 * so a caller does not run a non-idempotent request twice. Otherwise the write never left the node,
 * and retrying is safe (the cell resets and restores what the bucket holds).
 */
final class GateFailure {
    private GateFailure() {
    }

    static StubCallException toCaller(Throwable gate) {
        for (Throwable t = gate; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CommitOutcomeUnknownException u) {
                return new OutcomeUnknownException("outcome unknown: the write this result follows may have been applied,"
                        + " read the state before retrying; " + u.getMessage(), gate);
            }
        }
        return new StubCallException("the write this result follows did not become durable: " + Errors.rootMessage(gate), true, gate);
    }
}
