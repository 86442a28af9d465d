package dev.cellgate.deploy.dev;

import io.vertx.core.json.JsonObject;
import java.io.PrintStream;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;

/**
 * What {@code deploy-tool dev} prints for the person at the terminal: its own steps, each request
 * through the dev listener, the Worker's {@code console} output and the node's warnings and errors.
 * Colour only when stdout is a terminal ({@link dev.cellgate.deploy.cli.Terminals}), never under
 * {@code NO_COLOR} or {@code TERM=dumb}, so a piped or captured run stays plain text.
 */
final class DevConsole {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final String RESET = "\u001b[0m";
    private static final String DIM = "\u001b[2m";
    private static final String RED = "\u001b[31m";
    private static final String GREEN = "\u001b[32m";
    private static final String YELLOW = "\u001b[33m";
    private static final String CYAN = "\u001b[36m";
    private static final String BOLD = "\u001b[1m";

    private final PrintStream out;
    private final boolean colour;
    /** When each deployment dev published began its reload, to say how long the node took to serve it. */
    private final java.util.Map<String, Long> reloadStarted = new java.util.concurrent.ConcurrentHashMap<>();

    DevConsole(PrintStream out, boolean colour) {
        this.out = out;
        this.colour = colour;
    }

    /** Colour on a terminal only: the wrapper's answer (or /proc), unless NO_COLOR is set or TERM is dumb. */
    static boolean colourWanted(String stdoutTty, String noColor, String term) {
        return noColor == null && !"dumb".equals(term) && dev.cellgate.deploy.cli.Terminals.isTerminal(stdoutTty, 1);
    }

    /** A step of dev itself: bundling, reloads, where it listens. */
    void step(String text) {
        line(paint(CYAN, "[dev]") + " " + text);
    }

    /** Dev published deployment {@code id}, whose reload began at {@code startedNanos}. */
    void deployed(String id, long startedNanos, String text) {
        reloadStarted.put(id, startedNanos);
        step(text);
    }

    /** Something that stops a reload (bad config, build or load error): the previous deployment keeps serving. */
    void problem(String text) {
        line(paint(RED + BOLD, "[dev] error: ") + paint(RED, text));
    }

    /** One request through the dev listener, once its response ended (or failed). */
    void request(String method, String uri, int status, long ms, String note) {
        String colourOf = status >= 500 ? RED : status >= 400 ? YELLOW : GREEN;
        line(paint(DIM, now()) + " " + method + " " + uri + " " + paint(colourOf, String.valueOf(status)) + " " + paint(DIM, ms + " ms")
                + (note == null ? "" : " " + paint(RED, note)));
    }

    /**
     * One line of the node's log (its JSON lines): the Worker's console output and exceptions, the
     * deployment it switched to or could not load, and any other warning or error; routine events
     * stay in the node log file only.
     *
     * @return whether it was printed
     */
    boolean nodeLine(JsonObject e) {
        String event = e.getString("event", "");
        String level = e.getString("level", "INFO");
        switch (event) {
            case "js.console" -> {
                String tag = switch (level) {
                    case "ERROR" -> paint(RED, "error");
                    case "WARN" -> paint(YELLOW, " warn");
                    case "DEBUG" -> paint(DIM, "debug");
                    default -> "  log";
                };
                line(paint(DIM, now()) + " " + tag + " " + e.getString("message", ""));
                return true;
            }
            case "worker.exception" -> {
                // the error names the JavaScript location; the Java stack stays in the node log file
                line(paint(DIM, now()) + " " + paint(RED, "uncaught " + e.getString("error", "")));
                return true;
            }
            case "deployment.loaded" -> {
                String id = e.getString("deployment", "");
                Long started = reloadStarted.remove(id);
                step(paint(GREEN, "the node serves " + id) + (started == null ? ""
                        : " (" + java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) + " ms after the reload began)"));
                return true;
            }
            case "shutdown.drained" -> {
                step("the node drained: " + e.getValue("released") + " Durable Object(s) released"
                        + (Boolean.FALSE.equals(e.getValue("complete")) ? ", NOT complete (see node.log)" : ""));
                return true;
            }
            case "deployment.load_failed" -> {
                problem("the node could not load the new code, it keeps serving the previous one: " + e.getString("error", ""));
                return true;
            }
            default -> {
                if (level.equals("WARN") || level.equals("ERROR")) {
                    line(paint(level.equals("ERROR") ? RED : YELLOW, "[node] " + level.toLowerCase(java.util.Locale.ROOT) + " " + event)
                            + " " + details(e));
                    return true;
                }
                return false;
            }
        }
    }

    /** A line of the node's output that is not one of its JSON log lines (the JVM's own words): shown as it is. */
    void raw(String text) {
        line(paint(DIM, "[node] ") + text);
    }

    private static String details(JsonObject e) {
        JsonObject rest = e.copy();
        for (String k : new String[] {"ts", "level", "event", "node", "logger"}) {
            rest.remove(k);
        }
        return rest.isEmpty() ? "" : rest.encode();
    }

    private String paint(String code, String text) {
        return colour ? code + text + RESET : text;
    }

    private static String now() {
        return LocalTime.now().format(TIME);
    }

    private synchronized void line(String s) {
        out.println(s);
        out.flush();
    }
}
