package dev.cellgate.core.cell.storage;

import dev.cellgate.core.spi.js.StorageException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A platform table ({@code _cf_*}) created on first write, so a cell that never uses the API
 * never gets it. Whether it exists is cached; a rollback may undo the CREATE TABLE, so the
 * storage calls {@link #forget()} after every rollback.
 */
final class LazyTable {
    private final SqliteCellStorage db;
    private final String name;
    private final String createSql;
    private Boolean exists;

    LazyTable(SqliteCellStorage db, String name, String createSql) {
        this.db = db;
        this.name = name;
        this.createSql = createSql;
    }

    boolean exists() {
        if (exists == null) {
            try (PreparedStatement ps = db.connection().prepareStatement(
                    "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    exists = rs.next();
                }
            } catch (SQLException e) {
                throw new StorageException(SqliteCellStorage.cleanMessage(e), e);
            }
        }
        return exists;
    }

    /** Creates the table inside the turn's transaction when it is not there yet. */
    void create() {
        if (!exists()) {
            db.beginTurnTxn();
            db.exec(createSql);
            exists = true;
        }
    }

    void forget() {
        exists = null;
    }
}
