package dev.cellgate.core.cell;

import dev.cellgate.core.spi.js.StubCallException;

/** An activation ran past {@code CELLD_ACTIVATION_DEADLINE_MS}: the request fails, retryable; the slot serves other cells. */
final class ActivationDeadlineException extends StubCallException {
    ActivationDeadlineException(String scope, long deadlineMs, String stage) {
        super("cell " + scope + " could not be activated within " + deadlineMs + " ms (CELLD_ACTIVATION_DEADLINE_MS; it was at: "
                + stage + "); the node gave up on it, retry", true, null);
    }
}
