package dev.cellgate.gateway.trace;

import io.opentelemetry.context.Context;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where work that hops threads finds its parent span, by a name it already carries: a request's
 * id (it travels with every cell call, as the log context does) and a cell's scope (every bucket
 * key of a cell starts with {@code cells/<scope>/}). The Context is handed over explicitly this
 * way instead of through a ThreadLocal, which does not survive a hop between event loops, cell
 * executors and I/O pools.
 *
 * <p>An entry lives while its span is open. Two requests a client sent with the same
 * {@code X-Request-ID} at once, or two events of one cell in flight together, share a slot: the
 * later one is the parent of what follows; a span only ever removes its own entry.
 */
final class TraceRegistry {
    private final ConcurrentHashMap<String, Context> requests = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Context> cells = new ConcurrentHashMap<>();

    /** The open span serving {@code requestId} on this node, or null. */
    Context request(String requestId) {
        return requestId == null || requestId.isEmpty() ? null : requests.get(requestId);
    }

    /** Registers the span serving {@code requestId}; the returned handle removes exactly this entry. */
    Runnable serving(String requestId, Context ctx) {
        if (requestId == null || requestId.isEmpty()) {
            return () -> { };
        }
        requests.put(requestId, ctx);
        return () -> requests.remove(requestId, ctx);
    }

    /** The open event span of the cell {@code scope} on this node, or null. */
    Context cell(String scope) {
        return scope == null ? null : cells.get(scope);
    }

    Runnable inCell(String scope, Context ctx) {
        cells.put(scope, ctx);
        return () -> cells.remove(scope, ctx);
    }

    /** Open entries (tests: every span that ended removed its own). */
    int open() {
        return requests.size() + cells.size();
    }
}
