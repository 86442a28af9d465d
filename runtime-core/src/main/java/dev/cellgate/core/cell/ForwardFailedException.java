package dev.cellgate.core.cell;

import dev.cellgate.core.logic.ForwardFailure;

/**
 * A forwarded call that failed, with what the sending node observed ({@link ForwardFailure.Kind}).
 * The router asks {@link ForwardFailure.Policy} what to do with it: resolve the owner again and
 * re-send (only when the call provably did not run), or fail the call.
 */
public final class ForwardFailedException extends RuntimeException {
    private final ForwardFailure.Kind kind;
    private final String ownerHint;
    private final RuntimeException answered;

    public ForwardFailedException(ForwardFailure.Kind kind, String message) {
        this(kind, message, null, null);
    }

    /**
     * @param ownerHint the node a refusing peer named as the owner, or null
     * @param answered  for {@link ForwardFailure.Kind#ANSWERED_ERROR}: the owner's error as the caller gets it
     */
    public ForwardFailedException(ForwardFailure.Kind kind, String message, String ownerHint, RuntimeException answered) {
        super(message, null, false, false);
        this.kind = kind;
        this.ownerHint = ownerHint == null || ownerHint.isEmpty() ? null : ownerHint;
        this.answered = answered;
        if ((kind == ForwardFailure.Kind.ANSWERED_ERROR) != (answered != null)) {
            throw new IllegalArgumentException("the owner's error comes with ANSWERED_ERROR and only then (" + kind + ")");
        }
    }

    /** The owner's own error, as the owner answered it. */
    public static ForwardFailedException answered(RuntimeException error) {
        return new ForwardFailedException(ForwardFailure.Kind.ANSWERED_ERROR, String.valueOf(error.getMessage()), null, error);
    }

    public ForwardFailure.Kind kind() {
        return kind;
    }

    /** Where the refusing peer says the cell lives: the next try goes there when this node cannot look itself. */
    public String ownerHint() {
        return ownerHint;
    }

    /** The owner's error for {@link ForwardFailure.Kind#ANSWERED_ERROR}, else null. */
    public RuntimeException answered() {
        return answered;
    }
}
