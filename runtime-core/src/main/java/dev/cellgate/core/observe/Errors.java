package dev.cellgate.core.observe;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * How a failure is named in a log line or an answer: by its root cause, since the wrappers an
 * asynchronous chain adds ({@code CompletionException}, {@code ExecutionException}) say nothing.
 */
public final class Errors {
    private Errors() {
    }

    /** The innermost cause of {@code e} (itself when it has none). */
    public static Throwable root(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    /**
     * {@code e} without the wrappers an asynchronous chain adds, keeping every cause that says
     * something (a store's exception stays itself, not its own root cause).
     */
    public static Throwable unwrap(Throwable e) {
        Throwable t = e;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** The root cause's message, or its type and nothing else when it has none. */
    public static String rootMessage(Throwable e) {
        Throwable t = root(e);
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }
}
