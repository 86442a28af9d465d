package dev.cellgate.core.spi.js;

/**
 * A stub call that could not be delivered (owner unreachable, node draining, cell refused to
 * activate). {@code retryable} mirrors Cloudflare's {@code error.retryable}.
 */
public class StubCallException extends RuntimeException {
    private final boolean retryable;

    public StubCallException(String message, boolean retryable, Throwable cause) {
        super(message, cause);
        this.retryable = retryable;
    }

    public boolean retryable() {
        return retryable;
    }
}
