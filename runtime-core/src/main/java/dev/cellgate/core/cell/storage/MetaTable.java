package dev.cellgate.core.cell.storage;

import dev.cellgate.core.spi.js.StorageException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Small platform values kept inside the cell's database ({@code _cf_METADATA}): the alarm time, and
 * the point-in-time restore the next activation must make. Inside the database, so they are
 * replicated, restored and rolled back with the data they belong to.
 */
final class MetaTable {
    static final String ALARM = "alarm";
    static final String RESTORE_BOOKMARK = "restore_bookmark";

    private final SqliteCellStorage db;
    private final LazyTable table;

    MetaTable(SqliteCellStorage db) {
        this.db = db;
        this.table = new LazyTable(db, "_cf_METADATA", "CREATE TABLE IF NOT EXISTS _cf_METADATA (key TEXT PRIMARY KEY, value) WITHOUT ROWID");
    }

    /** A rollback may have undone the CREATE TABLE: look again before the next use. */
    void forgetWhetherItExists() {
        table.forget();
    }

    private boolean exists() {
        return table.exists();
    }

    OptionalLong getLong(String key) {
        Optional<Object> v = get(key);
        return v.isPresent() ? OptionalLong.of(((Number) v.get()).longValue()) : OptionalLong.empty();
    }

    Optional<String> getText(String key) {
        return get(key).map(String::valueOf);
    }

    private Optional<Object> get(String key) {
        if (!exists()) {
            return Optional.empty();
        }
        try {
            PreparedStatement ps = db.prepared("SELECT value FROM _cf_METADATA WHERE key = ?");
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getObject(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StorageException(SqliteCellStorage.cleanMessage(e), e);
        }
    }

    void putLong(String key, long value) {
        put(key, value);
    }

    void putText(String key, String value) {
        put(key, value);
    }

    private void put(String key, Object value) {
        db.beginTurnTxn();
        table.create();
        try {
            PreparedStatement ps = db.prepared("INSERT INTO _cf_METADATA(key, value) VALUES(?, ?) "
                    + "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
            ps.setString(1, key);
            ps.setObject(2, value);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new StorageException(SqliteCellStorage.cleanMessage(e), e);
        }
    }

    void delete(String key) {
        if (!exists()) {
            return;
        }
        db.beginTurnTxn();
        try {
            PreparedStatement ps = db.prepared("DELETE FROM _cf_METADATA WHERE key = ?");
            ps.setString(1, key);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new StorageException(SqliteCellStorage.cleanMessage(e), e);
        }
    }
}
