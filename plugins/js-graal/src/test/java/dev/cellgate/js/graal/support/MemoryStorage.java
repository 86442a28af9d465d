package dev.cellgate.js.graal.support;

import dev.cellgate.core.spi.js.CellStorage;
import dev.cellgate.core.spi.js.KvEntry;
import dev.cellgate.core.spi.js.KvListOptions;
import dev.cellgate.core.spi.js.SqlResult;
import dev.cellgate.core.spi.js.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * KV storage in memory, for engine tests only (the real cell storage is SQLite, owned by the cell
 * host). SQL is refused with a clear error.
 */
public final class MemoryStorage implements CellStorage {
    private final TreeMap<String, byte[]> kv = new TreeMap<>();
    private Long alarm;

    @Override
    public SqlResult sql(String query, Object[] bindings) {
        throw new StorageException("SQL is not available in the engine tests' memory storage");
    }

    @Override
    public long databaseSize() {
        return 0;
    }

    @Override
    public void beginNested() {
    }

    @Override
    public void commitNested() {
    }

    @Override
    public void rollbackNested() {
    }

    @Override
    public List<byte[]> kvGet(List<String> keys) {
        List<byte[]> out = new ArrayList<>();
        keys.forEach(k -> out.add(kv.get(k)));
        return out;
    }

    @Override
    public void kvPut(List<String> keys, List<byte[]> values) {
        for (int i = 0; i < keys.size(); i++) {
            kv.put(keys.get(i), values.get(i));
        }
    }

    @Override
    public int kvDelete(List<String> keys) {
        int n = 0;
        for (String k : keys) {
            n += kv.remove(k) != null ? 1 : 0;
        }
        return n;
    }

    @Override
    public List<KvEntry> kvList(KvListOptions o) {
        NavigableMap<String, byte[]> view = kv;
        List<KvEntry> out = new ArrayList<>();
        for (var e : (o.reverse() ? view.descendingMap() : view).entrySet()) {
            String k = e.getKey();
            if (o.prefix() != null && !k.startsWith(o.prefix())) continue;
            if (o.start() != null && k.compareTo(o.start()) < 0) continue;
            if (o.startAfter() != null && k.compareTo(o.startAfter()) <= 0) continue;
            if (o.end() != null && k.compareTo(o.end()) >= 0) continue;
            out.add(new KvEntry(k, e.getValue()));
            if (o.limit() > 0 && out.size() >= o.limit()) break;
        }
        return out;
    }

    @Override
    public void kvDeleteAll() {
        kv.clear();
        alarm = null;
    }

    @Override
    public OptionalLong getAlarm() {
        return alarm == null ? OptionalLong.empty() : OptionalLong.of(alarm);
    }

    @Override
    public void setAlarm(long epochMillis) {
        alarm = epochMillis;
    }

    @Override
    public void deleteAlarm() {
        alarm = null;
    }
}
