package dev.cellgate.core.spi.js;

/**
 * A call whose effect may or may not have happened: never {@code retryable} (Cloudflare's shape
 * for such an error), so a caller does not run a non-idempotent request twice. Its message starts
 * with "outcome unknown".
 */
public class OutcomeUnknownException extends StubCallException {
    public OutcomeUnknownException(String message, Throwable cause) {
        super(message.startsWith("outcome unknown") ? message : "outcome unknown: " + message, false, cause);
    }
}
