package dev.cellgate.core.spi.js;

/**
 * A call whose effect may or may not have happened: never {@code retryable} (Cloudflare's shape
 * for such an error), so a caller does not run a non-idempotent request twice. The application
 * decides (a read can be repeated; an increment should be checked first). Its message says
 * "outcome unknown". Two places raise it: an output gate that failed after its segment was sent
 * (the write may be in the bucket), and a forwarded call that reached its owner, or may have,
 * whose answer did not come back intact ({@link #connectionLost}).
 */
public class OutcomeUnknownException extends StubCallException {
    private final boolean ownerLost;

    public OutcomeUnknownException(String message, Throwable cause) {
        this(message, false, cause);
    }

    private OutcomeUnknownException(String message, boolean ownerLost, Throwable cause) {
        super(message.contains("outcome unknown") ? message : "outcome unknown: " + message, false, cause);
        this.ownerLost = ownerLost;
    }

    /**
     * Whether the call was lost with its owner (the connection to it broke after the call was sent:
     * SPEC §18, the owner crashed or went away), as opposed to a gate failure on a live node. The
     * Worker still sees a non-retryable error; only the public status of an uncaught one differs
     * (503 + Retry-After, a takeover follows, instead of 500).
     */
    public boolean ownerLost() {
        return ownerLost;
    }

    /**
     * A forwarded call to {@code scope} that may have run on its owner, once: worded as Cloudflare
     * reports a lost connection to a Durable Object that may have received the call.
     */
    public static OutcomeUnknownException connectionLost(String scope, Throwable cause) {
        return new OutcomeUnknownException(lostMessage(scope, cause), false, cause);
    }

    /**
     * {@link #connectionLost}, where the connection to the owner broke after the call was sent: the
     * owner may be dead, and a takeover follows within its lease TTL.
     */
    public static OutcomeUnknownException ownerLost(String scope, Throwable cause) {
        return new OutcomeUnknownException(lostMessage(scope, cause), true, cause);
    }

    private static String lostMessage(String scope, Throwable cause) {
        return "Network connection lost: the call to " + scope + " may or may not have run (outcome unknown; " + cause.getMessage() + ")";
    }
}
