package dev.cellgate.core.spi.js;

import java.util.List;
import java.util.OptionalLong;

/**
 * A Durable Object's storage: its own SQLite database. Synchronous, called only on the cell's
 * executor. Writes join the cell's implicit transaction, which the host commits at the end of the
 * current turn and makes durable before any later response leaves (the output gate).
 *
 * <p>KV values are opaque bytes: the engine's structured-clone serialization.
 */
public interface CellStorage {

    /**
     * Runs one or more SQL statements ({@code ;}-separated) with positional bindings applied to
     * the last one, and returns the last statement's result. Transaction control
     * ({@code BEGIN}, {@code COMMIT}, {@code SAVEPOINT}…), {@code ATTACH} and {@code _cf_} names
     * are refused with {@link StorageException}.
     */
    SqlResult sql(String query, Object[] bindings);

    /** Size of the database in bytes ({@code sql.databaseSize}). */
    long databaseSize();

    /** Opens a nested transaction ({@code transactionSync}, {@code transaction}). */
    void beginNested();

    /** Commits the innermost nested transaction into its parent. */
    void commitNested();

    /** Rolls the innermost nested transaction back. */
    void rollbackNested();

    /** Values for keys; a missing key gives {@code null} at its index. */
    List<byte[]> kvGet(List<String> keys);

    void kvPut(List<String> keys, List<byte[]> values);

    /** Deletes keys; returns how many existed. */
    int kvDelete(List<String> keys);

    List<KvEntry> kvList(KvListOptions options);

    /** Deletes every KV entry and the alarm (Cloudflare's {@code deleteAll}). */
    void kvDeleteAll();

    /** The alarm time in epoch milliseconds, if one is set. */
    OptionalLong getAlarm();

    void setAlarm(long epochMillis);

    void deleteAlarm();
}
