package dev.cellgate.core.bindings;

import dev.cellgate.core.logic.KvRules;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A node's copies of KV entries (SPEC §17: reads may be served from a cached copy for up to their
 * {@code cacheTtl}, default 60 s, as on Cloudflare), keyed by bucket key, least recently used
 * dropped first once over {@code maxBytes}. Missing keys are cached too (a negative lookup).
 *
 * <p>What a node writes it reads back at once: a put or delete replaces the node's copy when the
 * bucket confirmed it. A read that was already on its way to the bucket when a local write began
 * must not put the older answer back: a read takes a ticket from one sequence when it begins and a
 * write when it ends, and a read's answer is kept only when its key has no local write in flight
 * and none ended after the read began. A copy dropped (evicted, or its write failed) raises
 * {@link #floor} to its last write's end, so a read older than that keeps nothing either: the safe
 * answer is one more bucket read, never a stale copy after a local write. A copy whose write is in
 * flight is never evicted (it holds no value, only that fact).
 */
public final class KvReadCache {
    /** Values above this are never cached: a few of them would push out many small ones. */
    static final int MAX_VALUE_BYTES = 256 * 1024;
    /** The key and bookkeeping a copy costs besides its value and metadata (an estimate). */
    private static final int OVERHEAD_BYTES = 96;

    /** An entry as read or written: its bytes (never handed out: see {@link #valueCopy}), metadata JSON, expiration. */
    public record Copy(byte[] value, String metadata, long expiration) {
        /** A copy of the bytes for one reader, who may change them. */
        public byte[] valueCopy() {
            return value.clone();
        }
    }

    /** What the cache answered: {@code copy} null means the key was missing when cached. */
    public record Hit(Copy copy) {
    }

    private static final class Slot {
        Copy copy; // null: missing
        long cachedAtMs;
        long lastWriteEnd; // the ticket taken when the last local write ended (0: none)
        int writing; // local writes in flight
        boolean overlapped; // two were in flight at once: which landed last is unknown
        long size;
    }

    private final long maxBytes;
    private final LinkedHashMap<String, Slot> slots = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;
    private long tickets;
    /** The latest write end among dropped copies: reads that began before it keep nothing. */
    private long floor;

    public KvReadCache(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The copy that may answer a read asking for {@code cacheTtl} (NaN: the default) now, or null (read the bucket). */
    public synchronized Hit lookup(String key, long nowMs, double cacheTtl) {
        Slot s = slots.get(key);
        if (s == null || s.writing > 0 || !KvRules.cachedCopyServes(s.cachedAtMs, nowMs, cacheTtl)) {
            return null;
        }
        return new Hit(s.copy);
    }

    /** A bucket read begins: its ticket, for {@link #readAnswered}. */
    public synchronized long readBegins() {
        return ++tickets;
    }

    /** The bucket answered the read of {@code ticket}: {@code copy} (null: missing) is kept unless a local write began since. */
    public synchronized void readAnswered(String key, long ticket, Copy copy, long nowMs) {
        Slot s = slots.get(key);
        if (s == null ? floor > ticket : s.writing > 0 || s.lastWriteEnd > ticket) {
            return;
        }
        keep(key, s, copy, nowMs);
    }

    /** A local put or delete of {@code key} begins: until it ends, reads go to the bucket and keep nothing. */
    public synchronized void writeBegins(String key) {
        Slot s = slots.get(key);
        if (s == null) {
            s = new Slot();
            s.size = OVERHEAD_BYTES + 2L * key.length();
            slots.put(key, s);
            bytes += s.size;
        }
        s.overlapped |= s.writing > 0;
        s.writing++;
        trim();
    }

    /**
     * A local write of {@code key} ended: when the bucket confirmed it and no other local write of
     * the key overlapped it, {@code written} (null: deleted) is the node's copy; otherwise the key is
     * dropped once none is in flight (the bucket holds the old or the new value, or the other write's).
     */
    public synchronized void writeEnded(String key, Copy written, boolean confirmed, long nowMs) {
        Slot s = slots.get(key);
        if (s == null) {
            return; // cannot happen: a slot with a write in flight is never evicted
        }
        s.writing--;
        s.lastWriteEnd = ++tickets;
        if (s.writing > 0) {
            return;
        }
        if (confirmed && !s.overlapped) {
            keep(key, s, written, nowMs);
        } else {
            drop(key, s);
        }
    }

    synchronized long bytes() {
        return bytes;
    }

    private void keep(String key, Slot existing, Copy copy, long nowMs) {
        long size = OVERHEAD_BYTES + 2L * key.length() + (copy == null ? 0
                : copy.value().length + (copy.metadata() == null ? 0 : 2L * copy.metadata().length()));
        if (copy != null && copy.value().length > MAX_VALUE_BYTES) {
            if (existing != null) {
                drop(key, existing);
            }
            return;
        }
        Slot s = existing != null ? existing : new Slot();
        if (existing == null) {
            slots.put(key, s);
        } else {
            bytes -= s.size;
        }
        s.copy = copy;
        s.cachedAtMs = nowMs;
        s.size = size;
        bytes += size;
        trim();
    }

    private void drop(String key, Slot s) {
        slots.remove(key);
        bytes -= s.size;
        floor = Math.max(floor, s.lastWriteEnd);
    }

    private void trim() {
        Iterator<Map.Entry<String, Slot>> it = slots.entrySet().iterator();
        while (bytes > maxBytes && it.hasNext()) {
            Slot oldest = it.next().getValue();
            if (oldest.writing > 0) {
                continue;
            }
            it.remove();
            bytes -= oldest.size;
            floor = Math.max(floor, oldest.lastWriteEnd);
        }
    }
}
