package dev.cellgate.gateway.peer;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Nonces seen within the replay window. A nonce is remembered until its timestamp leaves the
 * accepted skew (after that the timestamp check refuses it anyway), so memory stays bounded by
 * the request rate times the window.
 */
public final class NonceWindow {
    private final ConcurrentHashMap<String, Long> seen = new ConcurrentHashMap<>();
    private final long windowMs;
    private long lastPurgeMs;

    public NonceWindow(long windowMs) {
        this.windowMs = windowMs;
    }

    /** True the first time a nonce is offered within the window. */
    public boolean firstSighting(String nonce, long requestTsMs, long nowMs) {
        purge(nowMs);
        return seen.putIfAbsent(nonce, requestTsMs) == null;
    }

    private void purge(long nowMs) {
        if (nowMs - lastPurgeMs < 1000) {
            return;
        }
        lastPurgeMs = nowMs;
        seen.entrySet().removeIf(e -> nowMs - e.getValue() > windowMs);
    }

    int size() {
        return seen.size();
    }
}
