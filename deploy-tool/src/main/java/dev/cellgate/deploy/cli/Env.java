package dev.cellgate.deploy.cli;

import java.io.PrintStream;
import java.util.Map;

/**
 * What a run of the tool sees of its process: environment variables and the two output streams.
 * Commands read the environment only through here, so tests run the real entry point in-process
 * with their own variables (a plugins directory, an esbuild path) and capture what it prints.
 */
public record Env(Map<String, String> vars, PrintStream out, PrintStream err) {
    public Env {
        vars = Map.copyOf(vars);
    }

    public static Env system() {
        return new Env(System.getenv(), System.out, System.err);
    }

    /** A variable's value, or null when unset or blank. */
    public String get(String name) {
        String v = vars.get(name);
        return v == null || v.isBlank() ? null : v;
    }
}
