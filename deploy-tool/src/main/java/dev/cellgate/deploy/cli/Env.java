package dev.cellgate.deploy.cli;

import java.io.ByteArrayInputStream;
import java.io.Console;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;

/**
 * What a run of the tool sees of its process: environment variables, the two output streams, and
 * stdin. Commands read the environment only through here, so tests run the real entry point
 * in-process with their own variables (a plugins directory, an esbuild path), their own stdin,
 * and capture what it prints.
 *
 * @param terminal how to ask the person at the terminal for a value without echoing it; null when
 *                 stdin is not a terminal (a pipe, a file, a CI job), and then values come from {@code in}
 */
public record Env(Map<String, String> vars, PrintStream out, PrintStream err, InputStream in, HiddenPrompt terminal) {
    public Env {
        vars = Map.copyOf(vars);
    }

    /** A run with nothing on stdin and no terminal. */
    public Env(Map<String, String> vars, PrintStream out, PrintStream err) {
        this(vars, out, err, new ByteArrayInputStream(new byte[0]), null);
    }

    /** Reads a line at the terminal without echoing it (a secret's value). */
    @FunctionalInterface
    public interface HiddenPrompt {
        /** The line typed, or null at end of input. */
        char[] read(String prompt);
    }

    /**
     * The process's own. Whether stdin is a terminal comes from the wrapper ({@code DEPLOY_TOOL_STDIN_TTY},
     * {@link Terminals}); at one, values are read through the JDK's {@link Console#readPassword}, which
     * turns echo off.
     */
    public static Env system() {
        Console console = System.console();
        HiddenPrompt terminal = null;
        if (Terminals.isTerminal(System.getenv("DEPLOY_TOOL_STDIN_TTY"), 0)) {
            terminal = console != null ? prompt -> console.readPassword("%s", prompt) : prompt -> {
                throw CommandException.refused("stdin is a terminal but the JVM has no console to read a value without echo;"
                        + " pipe the value in instead");
            };
        }
        return new Env(System.getenv(), System.out, System.err, System.in, terminal);
    }

    /** A variable's value, or null when unset or blank. */
    public String get(String name) {
        String v = vars.get(name);
        return v == null || v.isBlank() ? null : v;
    }
}
