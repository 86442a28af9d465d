package dev.cellgate.deploy.cli;

/** Ends a command with an exit code ({@link ExitCodes}) and a message for the user. */
public class CommandException extends RuntimeException {
    private final int exitCode;

    public CommandException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CommandException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }

    /** Validation said no: nothing was written. */
    public static CommandException refused(String message) {
        return new CommandException(ExitCodes.REFUSED, message);
    }

    public static CommandException usage(String message) {
        return new CommandException(ExitCodes.USAGE, message);
    }

    public static CommandException failed(String message, Throwable cause) {
        return new CommandException(ExitCodes.FAILED, message, cause);
    }
}
