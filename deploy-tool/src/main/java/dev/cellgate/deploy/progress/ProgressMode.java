package dev.cellgate.deploy.progress;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * How a push shows upload progress: {@code bar} (redrawn in place), {@code lines}, or {@code off}.
 *
 * <p>Why not {@code System.console()}: since JDK 22 it returns a console even when the streams
 * are pipes, and {@code Console.isTerminal()} does not exist in Java 21 bytecode. So, in order:
 * <ol>
 *   <li>{@code --progress bar|lines|off} when given;</li>
 *   <li>else {@code CELLD_PROGRESS} (same values);</li>
 *   <li>else {@code off} under {@code --json} (machine output stays quiet);</li>
 *   <li>else {@code bar} when stderr is a terminal, {@code lines} otherwise. The
 *       {@code deploy-tool} wrapper answers that with the shell's {@code [ -t 2 ]} and passes it as
 *       {@code DEPLOY_TOOL_STDERR_TTY=1|0}; without it (plain {@code java -jar}) the tool reads
 *       where {@code /proc/self/fd/2} points ({@code /dev/pts/*}, {@code /dev/tty*}: a terminal).
 *       {@code TERM=dumb} always means lines.</li>
 * </ol>
 */
public enum ProgressMode {
    BAR, LINES, OFF;

    public static ProgressMode parse(String value, String where) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "bar" -> BAR;
            case "lines" -> LINES;
            case "off" -> OFF;
            default -> throw new IllegalArgumentException(where + " must be bar, lines or off (got '" + value + "')");
        };
    }

    /**
     * @param flag        {@code --progress}, or null
     * @param envValue    {@code CELLD_PROGRESS}, or null
     * @param wrapperTty  {@code DEPLOY_TOOL_STDERR_TTY}, or null
     * @param term        {@code TERM}, or null
     * @param stderrLink  where file descriptor 2 points (read lazily), or null when unknown
     */
    public static ProgressMode decide(String flag, String envValue, boolean json, String wrapperTty, String term,
                                      Supplier<String> stderrLink) {
        if (flag != null) {
            return parse(flag, "--progress");
        }
        if (envValue != null) {
            return parse(envValue, "CELLD_PROGRESS");
        }
        if (json) {
            return OFF;
        }
        if ("dumb".equals(term)) {
            return LINES;
        }
        if (wrapperTty != null) {
            return "1".equals(wrapperTty) ? BAR : LINES;
        }
        return dev.cellgate.deploy.cli.Terminals.isTerminalDevice(stderrLink.get()) ? BAR : LINES;
    }

    /** Where this process's stderr points, from /proc (Linux); null elsewhere. */
    public static String stderrLink() {
        return dev.cellgate.deploy.cli.Terminals.fdLink(2);
    }

    public Progress open(PrintStream err) {
        return switch (this) {
            case BAR -> new BarProgress(err);
            case LINES -> new LineProgress(err);
            case OFF -> Progress.OFF;
        };
    }
}
