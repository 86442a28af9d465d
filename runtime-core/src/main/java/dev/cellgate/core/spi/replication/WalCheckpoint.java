package dev.cellgate.core.spi.replication;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Checkpoints a cell database ({@code PRAGMA wal_checkpoint(TRUNCATE)}) through the host's own
 * connection to it. The replicator calls it only on the cell's executor, or before the cell's
 * first event, so it never runs beside the cell's statements. The host lends its connection
 * because a second one, held for a cell's whole residency, costs two more file descriptors per
 * resident cell (database and WAL), and descriptors are what bound the resident cells of a node.
 */
@FunctionalInterface
public interface WalCheckpoint {
    /** Copies the WAL into the database and truncates it; busy when a transaction or statement holds it back. */
    Result truncate();

    /** SQLite's answer: whether the checkpoint was blocked, frames in the WAL, frames copied. */
    record Result(boolean busy, int walFrames, int checkpointedFrames) {
        /** Every frame was copied into the database: SQLite may start a new WAL generation. */
        public boolean copiedAll() {
            return walFrames >= 0 && walFrames == checkpointedFrames;
        }

        /** SQLite answers (0, -1, -1) for a database that is not in WAL mode. */
        public boolean notInWalMode() {
            return !busy && walFrames < 0;
        }
    }

    /**
     * The checkpoint through {@code conn}. An open transaction or an unfinished statement on it
     * makes SQLite answer "locked": that is reported as busy, like another connection's reader.
     */
    static WalCheckpoint through(Connection conn) {
        return () -> {
            try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                if (!rs.next()) {
                    throw new IllegalStateException("wal_checkpoint returned no row");
                }
                return new Result(rs.getInt(1) != 0, rs.getInt(2), rs.getInt(3));
            } catch (SQLException e) {
                String m = e.getMessage();
                if (m != null && (m.contains("SQLITE_BUSY") || m.contains("SQLITE_LOCKED") || m.contains("locked"))) {
                    return new Result(true, -1, -1);
                }
                throw new IllegalStateException("checkpoint failed: " + m, e);
            }
        };
    }
}
