package dev.cellgate.js.graal.host;

import dev.cellgate.core.spi.js.CellStorage;
import dev.cellgate.core.spi.js.KvEntry;
import dev.cellgate.core.spi.js.KvListOptions;
import dev.cellgate.core.spi.js.SqlResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyArray;

/**
 * A cell's {@link CellStorage} as {@code storage.js} sees it. Synchronous, on the cell's executor.
 * A refused or failed call does not throw across the boundary (a Java exception is opaque to
 * JavaScript): it returns {@code null} and leaves its message for {@link #takeError()}, which the
 * JavaScript side turns into an {@code Error} with that message.
 */
public final class StorageBridge {
    private final Supplier<CellStorage> storage;
    private final HostErrorSlot errors = new HostErrorSlot();
    private int nested;

    public StorageBridge(Supplier<CellStorage> storage) {
        this.storage = storage;
    }

    @HostAccess.Export
    public String takeError() {
        return errors.take();
    }

    private <T> T guard(Supplier<T> op) {
        return errors.guard(op);
    }

    /** Returns {@code [columnNames, rows, rowsRead, rowsWritten]}; integers as numbers, blobs as ArrayBuffers. */
    @HostAccess.Export
    public Object sql(String query, Value bindings) {
        return guard(() -> {
            Object[] args = new Object[(int) bindings.getArraySize()];
            for (int i = 0; i < args.length; i++) {
                args[i] = sqlValue(bindings.getArrayElement(i), i);
            }
            SqlResult r = storage.get().sql(query, args);
            Object[] rows = new Object[r.rows().size()];
            for (int i = 0; i < rows.length; i++) {
                Object[] row = r.rows().get(i).clone();
                for (int j = 0; j < row.length; j++) {
                    row[j] = toJs(row[j]);
                }
                rows[i] = ProxyArray.fromArray(row);
            }
            return ProxyArray.fromArray(ProxyArray.fromList(new ArrayList<>(r.columnNames())), ProxyArray.fromArray(rows),
                    (double) r.rowsRead(), (double) r.rowsWritten());
        });
    }

    private static Object sqlValue(Value v, int index) {
        if (v.isNull()) {
            return null;
        }
        if (v.isBoolean()) {
            return v.asBoolean() ? 1L : 0L;
        }
        if (v.isNumber()) {
            return v.fitsInLong() ? (Object) v.asLong() : (Object) v.asDouble();
        }
        if (v.isString()) {
            return v.asString();
        }
        if (v.hasBufferElements()) {
            byte[] b = new byte[(int) v.getBufferSize()];
            v.readBuffer(0, b, 0, b.length);
            return b;
        }
        throw new IllegalArgumentException("SQL binding " + (index + 1) + " has a type SQLite cannot store: " + v);
    }

    private static Object toJs(Object o) {
        if (o instanceof Long l) {
            return l.doubleValue();
        }
        if (o instanceof byte[] b) {
            return ByteBuffer.wrap(b);
        }
        return o;
    }

    @HostAccess.Export
    public Object databaseSize() {
        return guard(() -> (double) storage.get().databaseSize());
    }

    @HostAccess.Export
    public Object nested(int op) {
        return guard(() -> {
            switch (op) {
                case 0 -> {
                    storage.get().beginNested();
                    nested++;
                }
                case 1 -> {
                    storage.get().commitNested();
                    nested--;
                }
                default -> {
                    storage.get().rollbackNested();
                    nested--;
                }
            }
            return Boolean.TRUE;
        });
    }

    /** Rolls back every transaction still open, without JavaScript (its context could not run). */
    public void rollbackAll() {
        while (nested > 0) {
            nested--;
            storage.get().rollbackNested();
        }
    }

    /** Transactions opened through this bridge and not ended: at a turn's end only {@code transaction()} can leave some. */
    public int openTransactions() {
        return nested;
    }

    /** Values (ArrayBuffers, or null when missing) for the keys. */
    @HostAccess.Export
    public Object kvGet(Value keys) {
        return guard(() -> {
            List<byte[]> values = storage.get().kvGet(strings(keys));
            Object[] out = new Object[values.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = values.get(i) == null ? null : ByteBuffer.wrap(values.get(i));
            }
            return ProxyArray.fromArray(out);
        });
    }

    @HostAccess.Export
    public Object kvPut(Value keys, Value values) {
        return guard(() -> {
            List<byte[]> vs = new ArrayList<>();
            for (long i = 0; i < values.getArraySize(); i++) {
                Value v = values.getArrayElement(i);
                byte[] b = new byte[(int) v.getBufferSize()];
                v.readBuffer(0, b, 0, b.length);
                vs.add(b);
            }
            storage.get().kvPut(strings(keys), vs);
            return Boolean.TRUE;
        });
    }

    @HostAccess.Export
    public Object kvDelete(Value keys) {
        return guard(() -> (double) storage.get().kvDelete(strings(keys)));
    }

    /** {@code [key0, value0, key1, value1, …]}. */
    @HostAccess.Export
    public Object kvList(String start, String startAfter, String end, String prefix, boolean reverse, int limit) {
        return guard(() -> {
            List<KvEntry> entries = storage.get().kvList(new KvListOptions(start, startAfter, end, prefix, reverse, limit));
            Object[] out = new Object[entries.size() * 2];
            for (int i = 0; i < entries.size(); i++) {
                out[2 * i] = entries.get(i).key();
                out[2 * i + 1] = ByteBuffer.wrap(entries.get(i).value());
            }
            return ProxyArray.fromArray(out);
        });
    }

    @HostAccess.Export
    public Object kvDeleteAll() {
        return guard(() -> {
            storage.get().kvDeleteAll();
            return Boolean.TRUE;
        });
    }

    /** The alarm time in ms, or -1 when none. */
    @HostAccess.Export
    public Object getAlarm() {
        return guard(() -> {
            OptionalLong a = storage.get().getAlarm();
            return a.isPresent() ? (double) a.getAsLong() : -1.0;
        });
    }

    @HostAccess.Export
    public Object setAlarm(double epochMillis) {
        return guard(() -> {
            storage.get().setAlarm((long) epochMillis);
            return Boolean.TRUE;
        });
    }

    @HostAccess.Export
    public Object deleteAlarm() {
        return guard(() -> {
            storage.get().deleteAlarm();
            return Boolean.TRUE;
        });
    }

    private static List<String> strings(Value array) {
        List<String> out = new ArrayList<>((int) array.getArraySize());
        for (long i = 0; i < array.getArraySize(); i++) {
            out.add(array.getArrayElement(i).asString());
        }
        return out;
    }
}
