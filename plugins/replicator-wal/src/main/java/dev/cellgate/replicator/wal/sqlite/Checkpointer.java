package dev.cellgate.replicator.wal.sqlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * The replicator's own connection to a cell database, used only to checkpoint. It never opens a
 * transaction, so it never holds the WAL back. Its busy timeout is 0: it runs on the cell's
 * executor, and waiting there for the cell's own connection to finish would wait forever.
 */
public final class Checkpointer implements AutoCloseable {
    private final Path db;
    private final Connection conn;

    /** Result of {@code PRAGMA wal_checkpoint(TRUNCATE)}: whether every frame reached the database. */
    public record Result(boolean busy, int walFrames, int checkpointedFrames) {
        /** Every frame was copied into the database: SQLite may start a new WAL generation. */
        public boolean copiedAll() {
            return walFrames >= 0 && walFrames == checkpointedFrames;
        }
    }

    public Checkpointer(Path db) {
        this.db = db;
        try {
            this.conn = new org.sqlite.JDBC().connect("jdbc:sqlite:" + db.toAbsolutePath(), new Properties());
            try (Statement s = conn.createStatement()) {
                s.execute("PRAGMA busy_timeout=0");
                try (ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
                    String mode = rs.next() ? rs.getString(1) : "?";
                    if (!"wal".equalsIgnoreCase(mode)) {
                        throw new IllegalStateException("cell database " + db + " is in journal mode '" + mode
                                + "': the host must open it with PRAGMA journal_mode=WAL before attaching");
                    }
                }
                s.execute("PRAGMA wal_autocheckpoint=0"); // per connection: ours must never checkpoint by itself either
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open cell database " + db + " for replication: " + e.getMessage(), e);
        }
    }

    /** Copies the WAL into the database and truncates it, unless the cell's connection is mid-transaction (busy). */
    public Result truncate() {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
            if (!rs.next()) {
                throw new IllegalStateException("wal_checkpoint returned no row");
            }
            return new Result(rs.getInt(1) != 0, rs.getInt(2), rs.getInt(3));
        } catch (SQLException e) {
            if (e.getMessage() != null && (e.getMessage().contains("SQLITE_BUSY") || e.getMessage().contains("locked"))) {
                return new Result(true, -1, -1);
            }
            throw new IllegalStateException("checkpoint of " + db + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            conn.close();
        } catch (SQLException e) {
            // Closing a connection without transactions cannot lose anything.
        }
    }
}
