package dev.cellgate.core.observe;

import org.slf4j.MDC;

/**
 * The request id and cell scope of the work a thread is doing, in the SLF4J MDC so that every log
 * line written meanwhile carries them. Work hops threads (event loops, cell executors, I/O pools):
 * set the context where the line is written, around the task, and restore it afterwards.
 *
 * <pre>{@code
 * try (LogContext.Scope s = LogContext.enter(requestId, scope)) {
 *     ... work that may log ...
 * }
 * }</pre>
 */
public final class LogContext {
    /** MDC key of the request id (the same name the log lines use for it as a key/value). */
    public static final String REQUEST_ID = "request_id";
    /** MDC key of the cell scope ({@code Class:hexid}). */
    public static final String SCOPE = "scope";

    private LogContext() {
    }

    /**
     * Sets the given values (a null leaves that key as it is, so an inner scope keeps the outer
     * request id) and returns what restores the previous values.
     */
    public static Scope enter(String requestId, String scope) {
        String prevRequest = null;
        String prevScope = null;
        boolean setRequest = requestId != null && !requestId.isEmpty();
        boolean setScope = scope != null;
        if (setRequest) {
            prevRequest = MDC.get(REQUEST_ID);
            MDC.put(REQUEST_ID, requestId);
        }
        if (setScope) {
            prevScope = MDC.get(SCOPE);
            MDC.put(SCOPE, scope);
        }
        return new Scope(setRequest, prevRequest, setScope, prevScope);
    }

    /** Runs {@code task} with the context set. */
    public static void run(String requestId, String scope, Runnable task) {
        try (Scope s = enter(requestId, scope)) {
            task.run();
        }
    }

    /** Restores the values an {@link #enter} replaced. */
    public static final class Scope implements AutoCloseable {
        private final boolean request;
        private final String prevRequest;
        private final boolean scope;
        private final String prevScope;

        private Scope(boolean request, String prevRequest, boolean scope, String prevScope) {
            this.request = request;
            this.prevRequest = prevRequest;
            this.scope = scope;
            this.prevScope = prevScope;
        }

        @Override
        public void close() {
            if (request) {
                restore(REQUEST_ID, prevRequest);
            }
            if (scope) {
                restore(SCOPE, prevScope);
            }
        }

        private static void restore(String key, String prev) {
            if (prev == null) {
                MDC.remove(key);
            } else {
                MDC.put(key, prev);
            }
        }
    }
}
