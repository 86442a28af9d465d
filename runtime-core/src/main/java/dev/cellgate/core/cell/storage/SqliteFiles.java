package dev.cellgate.core.cell.storage;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.nio.file.Path;

/**
 * Opens a cell database the way the replicator expects it (plugins/replicator-wal/README.md):
 * WAL mode with automatic checkpoints off (the replicator checkpoints after it shipped the
 * frames), {@code synchronous=NORMAL} (durability is the bucket's job, not fsync's).
 */
public final class SqliteFiles {
    private SqliteFiles() {
    }

    public static Connection open(Path file) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("PRAGMA wal_autocheckpoint=0");
            s.execute("PRAGMA synchronous=NORMAL");
            s.execute("PRAGMA busy_timeout=10000");
            s.execute("PRAGMA foreign_keys=ON");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }
}
