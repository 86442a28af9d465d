package dev.cellgate.core.cell.storage;

import dev.cellgate.core.spi.js.StorageException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.OptionalLong;

/** Small platform values kept inside the cell's database ({@code _cf_METADATA}): the alarm time. */
final class MetaTable {
    static final String ALARM = "alarm";

    private final SqliteCellStorage db;
    private Boolean exists;

    MetaTable(SqliteCellStorage db) {
        this.db = db;
    }

    /** A rollback may have undone the CREATE TABLE: look again before the next use. */
    void forgetWhetherItExists() {
        exists = null;
    }

    private boolean exists() {
        if (exists == null) {
            try (PreparedStatement ps = db.connection().prepareStatement(
                    "SELECT 1 FROM sqlite_master WHERE type='table' AND name='_cf_METADATA'"); ResultSet rs = ps.executeQuery()) {
                exists = rs.next();
            } catch (SQLException e) {
                throw new StorageException(SqliteCellStorage.cleanMessage(e), e);
            }
        }
        return exists;
    }

    OptionalLong getLong(String key) {
        if (!exists()) {
            return OptionalLong.empty();
        }
        try {
            PreparedStatement ps = db.prepared("SELECT value FROM _cf_METADATA WHERE key = ?");
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        } catch (SQLException e) {
            throw new StorageException(SqliteCellStorage.cleanMessage(e), e);
        }
    }

    void putLong(String key, long value) {
        db.beginTurnTxn();
        if (!exists()) {
            db.exec("CREATE TABLE IF NOT EXISTS _cf_METADATA (key TEXT PRIMARY KEY, value) WITHOUT ROWID");
            exists = true;
        }
        try {
            PreparedStatement ps = db.prepared("INSERT INTO _cf_METADATA(key, value) VALUES(?, ?) "
                    + "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
            ps.setString(1, key);
            ps.setLong(2, value);
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
