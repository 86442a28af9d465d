package dev.cellgate.js.graal.instance;

/** An event stopped by the watchdog: it used more CPU time or allocated more memory than allowed. */
public class LimitExceededException extends RuntimeException {
    private final boolean memory;

    LimitExceededException(String message, boolean memory) {
        super(message, null, false, false);
        this.memory = memory;
    }

    /** True when the instance must be replaced: its heap may still hold what the event allocated. */
    public boolean memory() {
        return memory;
    }
}
