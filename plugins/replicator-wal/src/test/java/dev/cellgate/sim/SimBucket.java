package dev.cellgate.sim;

import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The shared bucket's state. Every operation here is one atomic instant at the store; latency,
 * loss and throttling are {@link SimBucketView}'s. Each applied change is reported to the
 * {@link Checker}, which keeps the history the properties are judged on.
 */
final class SimBucket {
    /** An object with the session that wrote it, when that write was issued (true time) and when it landed. */
    record Obj(byte[] bytes, String version, String writer, long issuedAt, long at) {
    }

    private final TreeMap<String, Obj> objects = new TreeMap<>();
    private final EventLoop loop;
    private final Checker checker;
    private long versions;

    SimBucket(EventLoop loop, Checker checker) {
        this.loop = loop;
        this.checker = checker;
    }

    Obj current(String key) {
        return objects.get(key);
    }

    Optional<StoredObject> read(String key, SimProcess reader, String component) {
        Obj o = objects.get(key);
        checker.onRead(reader, component, key, o, loop.now());
        return o == null ? Optional.empty() : Optional.of(new StoredObject(o.bytes().clone(), o.version()));
    }

    WriteOutcome putIfAbsent(String key, byte[] bytes, SimProcess w, long issuerClock, long issuedAt) {
        if (objects.containsKey(key)) {
            checker.casRejected++;
            return new WriteOutcome.Rejected("object exists");
        }
        return write(key, bytes, w, issuerClock, issuedAt);
    }

    WriteOutcome putIfVersion(String key, byte[] bytes, String version, SimProcess w, long issuerClock, long issuedAt) {
        Obj o = objects.get(key);
        if (o == null || !o.version().equals(version)) {
            checker.casRejected++;
            return new WriteOutcome.Rejected(o == null ? "object does not exist" : "version differs");
        }
        return write(key, bytes, w, issuerClock, issuedAt);
    }

    WriteOutcome put(String key, byte[] bytes, SimProcess w, long issuerClock, long issuedAt) {
        return write(key, bytes, w, issuerClock, issuedAt);
    }

    void delete(String key, SimProcess w, String component) {
        Obj before = objects.remove(key);
        checker.onDelete(key, before, w, component, loop.now());
    }

    ListPage list(String prefix, String cursor, int limit) {
        List<String> keys = new ArrayList<>();
        Map<String, Obj> tail = cursor == null ? objects.tailMap(prefix, true) : objects.tailMap(cursor, false);
        String last = null;
        for (String k : tail.keySet()) {
            if (!k.startsWith(prefix)) {
                if (k.compareTo(prefix) > 0) {
                    break;
                }
                continue;
            }
            if (keys.size() == limit) {
                return new ListPage(keys, last);
            }
            keys.add(k);
            last = k;
        }
        return new ListPage(keys, null);
    }

    /** Keys under {@code prefix}, for the final checks. */
    List<String> keys(String prefix) {
        List<String> out = new ArrayList<>();
        for (String k : objects.tailMap(prefix, true).keySet()) {
            if (!k.startsWith(prefix)) {
                break;
            }
            out.add(k);
        }
        return out;
    }

    private WriteOutcome write(String key, byte[] bytes, SimProcess w, long issuerClock, long issuedAt) {
        Obj before = objects.get(key);
        Obj after = new Obj(bytes.clone(), "v" + (++versions), w.session, issuedAt, loop.now());
        objects.put(key, after);
        checker.onWrite(key, before, after, w, issuerClock, loop.now());
        return new WriteOutcome.Written(after.version());
    }
}
