package dev.cellgate.js.graal.host.cache;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The node's Cache API store ({@code caches.default} and {@code caches.open(name)} of every Worker
 * on this node), as one colo's cache is: in memory, bounded in bytes ({@code CELLD_CACHE_MB}),
 * least recently used entries evicted first, an entry larger than an eighth of the bound never
 * stored; expired entries are dropped when touched. Other nodes have their own: like two colos,
 * they do not see each other's entries, and a restart empties it. Shared by the instances'
 * executor threads, hence synchronized.
 */
public final class NodeCache {
    /** Switch for the negative control of the memory bound (tests only): OFF keeps every entry. */
    public enum Bound { ENFORCED, OFF_FOR_NEGATIVE_CONTROL }

    /** A stored response: status, the headers a match answers with, the body, and when it expires. */
    public record Entry(int status, List<Map.Entry<String, String>> headers, byte[] body, long expiresAtMs) {
        long size() {
            long n = body.length + 64;
            for (Map.Entry<String, String> h : headers) {
                n += h.getKey().length() + h.getValue().length() + 16;
            }
            return n;
        }
    }

    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(64, 0.75f, true);
    private final long maxBytes;
    private final Bound bound;
    private long bytes;

    public NodeCache(long maxBytes) {
        this(maxBytes, Bound.ENFORCED);
    }

    public NodeCache(long maxBytes, Bound bound) {
        this.maxBytes = maxBytes;
        this.bound = bound;
    }

    public long maxBytes() {
        return maxBytes;
    }

    public synchronized long bytes() {
        return bytes;
    }

    public synchronized int size() {
        return entries.size();
    }

    /** Stores (replacing) {@code key}; false when the entry is too large for this cache. */
    public synchronized boolean put(String key, Entry e) {
        long size = e.size();
        if (bound == Bound.ENFORCED && size > maxBytes / 8) {
            return false;
        }
        Entry old = entries.put(key, e);
        if (old != null) {
            bytes -= old.size();
        }
        bytes += size;
        if (bound == Bound.ENFORCED) {
            Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
            while (bytes > maxBytes && it.hasNext()) {
                Map.Entry<String, Entry> eldest = it.next();
                bytes -= eldest.getValue().size();
                it.remove();
            }
        }
        return true;
    }

    /** The fresh entry of {@code key} at {@code nowMs}, or null (an expired one is dropped). */
    public synchronized Entry get(String key, long nowMs) {
        Entry e = entries.get(key);
        if (e != null && e.expiresAtMs() <= nowMs) {
            entries.remove(key);
            bytes -= e.size();
            return null;
        }
        return e;
    }

    /** Removes {@code key}; whether a fresh entry was there. */
    public synchronized boolean delete(String key, long nowMs) {
        Entry e = entries.remove(key);
        if (e == null) {
            return false;
        }
        bytes -= e.size();
        return e.expiresAtMs() > nowMs;
    }
}
