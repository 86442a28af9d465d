package dev.cellgate.deploy.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Is a standard stream a terminal? The JVM cannot say reliably ({@code System.console()} answers
 * for pipes too since JDK 22), so the wrapper script asks the shell ({@code [ -t N ]}) and passes
 * the answer in an environment variable; run as plain {@code java -jar}, the tool looks where
 * {@code /proc/self/fd/N} points (Linux).
 */
public final class Terminals {
    private Terminals() {
    }

    /** Where file descriptor {@code fd} of this process points, from /proc (Linux); null elsewhere. */
    public static String fdLink(int fd) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return null;
        }
    }

    /** A path {@link #fdLink} gave names a terminal device. */
    public static boolean isTerminalDevice(String link) {
        return link != null && (link.startsWith("/dev/pts/") || link.startsWith("/dev/tty"));
    }

    /** {@code wrapperValue} ({@code 1}/{@code 0}) when the wrapper set it, else what /proc says of {@code fd}. */
    public static boolean isTerminal(String wrapperValue, int fd) {
        return wrapperValue != null ? "1".equals(wrapperValue) : isTerminalDevice(fdLink(fd));
    }
}
