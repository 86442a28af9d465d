package dev.cellgate.core.cell;

/**
 * A forwarded call that did not reach a cell (the node was not the owner any more, is draining,
 * or could not be reached): nothing ran, so the router resolves the owner again and retries.
 */
public final class RerouteException extends RuntimeException {
    private final long delayMs;
    private final String ownerHint;

    public RerouteException(String message, long delayMs) {
        this(message, delayMs, null);
    }

    /** @param ownerHint the node the refusing peer named as the owner, or null */
    public RerouteException(String message, long delayMs, String ownerHint) {
        super(message, null, false, false);
        this.delayMs = delayMs;
        this.ownerHint = ownerHint == null || ownerHint.isEmpty() ? null : ownerHint;
    }

    /** Where the refusing peer says the cell lives: the next try goes there when this node cannot look itself. */
    public String ownerHint() {
        return ownerHint;
    }

    public long delayMs() {
        return delayMs;
    }
}
