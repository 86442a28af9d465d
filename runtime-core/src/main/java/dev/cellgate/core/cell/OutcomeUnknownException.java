package dev.cellgate.core.cell;

import dev.cellgate.core.spi.js.StubCallException;

/**
 * A forwarded call that reached its owner, or may have, and whose answer did not come back
 * intact: it may have run, once. Reported as Cloudflare reports a lost connection to a Durable
 * Object that may have received the call: an error with {@code retryable: false}, so that no
 * automatic retry runs a non-idempotent call twice. The application decides (a read can be
 * repeated; an increment should be checked first).
 */
public final class OutcomeUnknownException extends StubCallException {
    public OutcomeUnknownException(String scope, Throwable cause) {
        super("Network connection lost: the call to " + scope + " may or may not have run (outcome unknown; "
                + cause.getMessage() + ")", false, cause);
    }
}
