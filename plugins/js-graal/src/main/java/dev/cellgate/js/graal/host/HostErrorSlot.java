package dev.cellgate.js.graal.host;

import java.util.function.Supplier;

/**
 * How a bridge reports a host failure to JavaScript: the call returns null and leaves the
 * message here; the bridge's exported {@code takeError()} hands it to the runtime script, which
 * throws it as a JavaScript {@code Error}. One slot per bridge, used on its instance's thread.
 */
final class HostErrorSlot {
    private String error;

    /** The message of the last failure, once; null when the last call succeeded. */
    String take() {
        String e = error;
        error = null;
        return e;
    }

    /** Runs {@code op}; a runtime exception becomes the slot's message and a null result. */
    <T> T guard(Supplier<T> op) {
        try {
            return op.get();
        } catch (RuntimeException e) {
            error = e.getMessage() == null ? e.toString() : e.getMessage();
            return null;
        }
    }
}
