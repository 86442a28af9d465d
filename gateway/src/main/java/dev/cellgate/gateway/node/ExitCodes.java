package dev.cellgate.gateway.node;

/** Process exit codes, documented in {@code --help} and docs/operations.md. */
public final class ExitCodes {
    private ExitCodes() {
    }

    public static final int OK = 0;
    public static final int STARTUP_FAILED = 1;
    public static final int CONFIG = 2;
    public static final int SELF_FENCED = 3;
}
