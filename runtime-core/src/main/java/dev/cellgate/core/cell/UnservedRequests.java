package dev.cellgate.core.cell;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Requests whose Durable Object call failed because this node was not serving cells (its lease had
 * lapsed; issue 29). The public listener asks about a request the Worker failed: such a request is
 * answered 503 with {@code Retry-After} (the node is degraded, a retry may succeed on another node or
 * after the rejoin), never as a Worker error. Bounded: an entry nobody asked about (the Worker caught
 * the error and answered) is dropped after {@link #KEEP_MS}, and at most {@link #MAX} are kept.
 */
public final class UnservedRequests {
    static final long KEEP_MS = 120_000;
    static final int MAX = 10_000;

    private final ConcurrentHashMap<String, Long> noted = new ConcurrentHashMap<>();

    void note(String requestId, long nowMs) {
        noted.put(requestId, nowMs);
        if (noted.size() > MAX) {
            noted.entrySet().removeIf(e -> nowMs - e.getValue() > KEEP_MS);
            if (noted.size() > MAX) {
                noted.clear(); // a flood of unasked entries: forgetting them costs only their 503s
            }
        }
    }

    /** Whether a cell call of {@code requestId} failed because the node was not serving cells; forgets it. */
    public boolean take(String requestId) {
        return requestId != null && noted.remove(requestId) != null;
    }

    int size() {
        return noted.size();
    }
}
