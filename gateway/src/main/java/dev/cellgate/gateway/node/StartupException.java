package dev.cellgate.gateway.node;

/** A node that cannot start; carries the exit code the process ends with. */
final class StartupException extends Exception {
    private final int exitCode;

    StartupException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
