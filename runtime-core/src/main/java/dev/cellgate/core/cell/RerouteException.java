package dev.cellgate.core.cell;

/**
 * A forwarded call that did not reach a cell (the node was not the owner any more, is draining,
 * or could not be reached): nothing ran, so the router resolves the owner again and retries.
 */
public final class RerouteException extends RuntimeException {
    private final long delayMs;

    public RerouteException(String message, long delayMs) {
        super(message, null, false, false);
        this.delayMs = delayMs;
    }

    public long delayMs() {
        return delayMs;
    }
}
