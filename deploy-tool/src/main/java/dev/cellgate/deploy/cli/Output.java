package dev.cellgate.deploy.cli;

import io.vertx.core.json.JsonObject;
import java.io.PrintStream;

/**
 * Where a command's words go. The result goes to stdout (one JSON object with {@code --json},
 * else text); notes and errors go to stderr, so {@code deploy-tool list --json | jq} stays
 * parseable. With {@code --json} an error is also a JSON object on stdout
 * ({@code {"ok":false,"exit_code":3,"error":"…"}}) so a script reading stdout sees it.
 */
public final class Output {
    private final PrintStream out;
    private final PrintStream err;
    private final boolean json;

    public Output(PrintStream out, PrintStream err, boolean json) {
        this.out = out;
        this.err = err;
        this.json = json;
    }

    public boolean json() {
        return json;
    }

    public PrintStream err() {
        return err;
    }

    /** The command's result: {@code data} with {@code "ok":true} under --json, else {@code text}. */
    public void result(JsonObject data, String text) {
        if (json) {
            out.println(new JsonObject().put("ok", true).mergeIn(data).encode());
        } else {
            out.print(text.endsWith("\n") ? text : text + "\n");
        }
        out.flush();
    }

    /** A result that is itself a verdict (diagnose): printed as given, {@code ok} included by the caller. */
    public void report(JsonObject data, String text) {
        if (json) {
            out.println(data.encode());
        } else {
            out.print(text.endsWith("\n") ? text : text + "\n");
        }
        out.flush();
    }

    /** A progress or advice line for a human (stderr; not shown under --json). */
    public void note(String line) {
        if (!json) {
            err.println(line);
            err.flush();
        }
    }

    /** Reports a failure and returns its exit code. */
    public int error(int exitCode, String message) {
        err.println("deploy-tool: " + message);
        err.flush();
        if (json) {
            out.println(new JsonObject().put("ok", false).put("exit_code", exitCode).put("error", message).encode());
            out.flush();
        }
        return exitCode;
    }
}
