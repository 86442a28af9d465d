package dev.cellgate.core.cell;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Owners of cells that live on other nodes, as this node last read them from the bucket. A call
 * for such a cell goes straight to the named node instead of reading the ownership record and
 * the owner's lease again (two bucket round trips per forwarded call, which the bench measured
 * as most of a forwarded read's time on loopback S3).
 *
 * <p>Only ever a hint, never a decision: the named node checks ownership itself and answers "not
 * owner" with the real owner when the cell moved; any reroute forgets the hint (see
 * {@link CellRouter}), and so does this node acquiring the cell. A stale hint costs one extra hop,
 * never a wrong owner. Hints expire after {@link #HINT_MS} so that a full resolution, which judges
 * the owner's lease, runs again from time to time.
 */
final class OwnerHints {
    /** How long a hint is used before the bucket is read again. */
    static final long HINT_MS = 5_000;
    /** Beyond this many hints the map is cleared: a bound on memory, not a cache policy. */
    static final int MAX_HINTS = 100_000;

    private record Hint(String node, long untilMs) {
    }

    private final ConcurrentHashMap<String, Hint> hints = new ConcurrentHashMap<>();

    /** The node to forward to, or null when there is no fresh hint. */
    String owner(String scope, long nowMs) {
        Hint h = hints.get(scope);
        if (h == null) {
            return null;
        }
        if (nowMs >= h.untilMs) {
            hints.remove(scope, h);
            return null;
        }
        return h.node;
    }

    void remember(String scope, String node, long nowMs) {
        if (hints.size() >= MAX_HINTS) {
            hints.clear();
        }
        hints.put(scope, new Hint(node, nowMs + HINT_MS));
    }

    void forget(String scope) {
        hints.remove(scope);
    }

    int size() {
        return hints.size();
    }
}
