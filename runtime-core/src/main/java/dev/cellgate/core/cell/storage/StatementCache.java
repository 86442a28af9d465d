package dev.cellgate.core.cell.storage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Prepared statements by SQL text, least recently used evicted. A Durable Object runs the same
 * few statements over and over (the counter's UPDATE); compiling them once is most of SQLite's cost.
 */
final class StatementCache implements AutoCloseable {
    private static final int MAX = 128;

    private final Connection conn;
    private final LinkedHashMap<String, PreparedStatement> cache = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() > MAX) {
                closeQuietly(eldest.getValue());
                return true;
            }
            return false;
        }
    };

    StatementCache(Connection conn) {
        this.conn = conn;
    }

    PreparedStatement get(String sql) throws SQLException {
        PreparedStatement ps = cache.get(sql);
        if (ps == null) {
            ps = conn.prepareStatement(sql);
            cache.put(sql, ps);
        } else {
            ps.clearParameters();
        }
        return ps;
    }

    /** Drops everything (after a schema change some drivers keep stale plans; SQLite re-prepares itself). */
    void clear() {
        cache.values().forEach(StatementCache::closeQuietly);
        cache.clear();
    }

    @Override
    public void close() {
        clear();
    }

    private static void closeQuietly(PreparedStatement ps) {
        try {
            ps.close();
        } catch (SQLException ignored) {
            // closing a statement of a connection being closed
        }
    }
}
