package dev.cellgate.core.cell.storage;

import dev.cellgate.core.spi.js.KvEntry;
import dev.cellgate.core.spi.js.KvListOptions;
import dev.cellgate.core.spi.js.StorageException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The KV API's hidden table {@code _cf_KV} (key TEXT, value BLOB). SQLite's BINARY collation
 * compares UTF-8 bytes, which is Cloudflare's key order. The table is created on the first write,
 * so a cell that only uses SQL never gets it.
 */
final class KvTable {
    static final int MAX_KEY_BYTES = 2048;
    static final int MAX_ENTRY_BYTES = 2 * 1024 * 1024;
    static final int MAX_KEYS_PER_CALL = 128;

    private final SqliteCellStorage db;
    private Boolean exists;

    KvTable(SqliteCellStorage db) {
        this.db = db;
    }

    /** A rollback may have undone the CREATE TABLE: look again before the next use. */
    void forgetWhetherItExists() {
        exists = null;
    }

    private boolean exists() {
        if (exists == null) {
            try (PreparedStatement ps = db.connection().prepareStatement(
                    "SELECT 1 FROM sqlite_master WHERE type='table' AND name='_cf_KV'"); ResultSet rs = ps.executeQuery()) {
                exists = rs.next();
            } catch (SQLException e) {
                throw new StorageException(SqliteCellStorage.cleanMessage(e), e);
            }
        }
        return exists;
    }

    private void create() {
        if (!exists()) {
            db.beginTurnTxn();
            db.exec("CREATE TABLE IF NOT EXISTS _cf_KV (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID");
            exists = true;
        }
    }

    List<byte[]> get(List<String> keys) {
        checkKeys(keys);
        List<byte[]> out = new ArrayList<>(keys.size());
        if (!exists()) {
            keys.forEach(k -> out.add(null));
            return out;
        }
        try {
            PreparedStatement ps = db.prepared("SELECT value FROM _cf_KV WHERE key = ?");
            for (String k : keys) {
                ps.setString(1, k);
                try (ResultSet rs = ps.executeQuery()) {
                    out.add(rs.next() ? rs.getBytes(1) : null);
                }
            }
            return out;
        } catch (SQLException e) {
            throw new StorageException(SqliteCellStorage.cleanMessage(e), e);
        }
    }

    void put(List<String> keys, List<byte[]> values) {
        checkKeys(keys);
        if (keys.size() != values.size()) {
            throw new StorageException("put() got " + keys.size() + " keys and " + values.size() + " values");
        }
        for (int i = 0; i < keys.size(); i++) {
            long size = SqliteCellStorage.utf8(keys.get(i)).length + (long) values.get(i).length;
            if (size > MAX_ENTRY_BYTES) {
                throw new StorageException("key and value of '" + abbreviate(keys.get(i)) + "' together exceed "
                        + MAX_ENTRY_BYTES + " bytes (" + size + ")");
            }
        }
        create();
        db.beginTurnTxn();
        try {
            PreparedStatement ps = db.prepared("INSERT INTO _cf_KV(key, value) VALUES(?, ?) "
                    + "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
            for (int i = 0; i < keys.size(); i++) {
                ps.setString(1, keys.get(i));
                ps.setBytes(2, values.get(i));
                ps.executeUpdate();
            }
        } catch (SQLException e) {
            throw new StorageException(SqliteCellStorage.cleanMessage(e), e);
        }
    }

    int delete(List<String> keys) {
        checkKeys(keys);
        if (!exists()) {
            return 0;
        }
        db.beginTurnTxn();
        int n = 0;
        try {
            PreparedStatement ps = db.prepared("DELETE FROM _cf_KV WHERE key = ?");
            for (String k : keys) {
                ps.setString(1, k);
                n += ps.executeUpdate();
            }
            return n;
        } catch (SQLException e) {
            throw new StorageException(SqliteCellStorage.cleanMessage(e), e);
        }
    }

    List<KvEntry> list(KvListOptions o) {
        if (o.limit() < 0) {
            throw new StorageException("list() limit must be a positive integer");
        }
        if (o.start() != null && o.startAfter() != null) {
            throw new StorageException("list() cannot take both start and startAfter");
        }
        if (!exists()) {
            return List.of();
        }
        StringBuilder sql = new StringBuilder("SELECT key, value FROM _cf_KV WHERE 1=1");
        List<String> args = new ArrayList<>();
        if (o.start() != null) {
            sql.append(" AND key >= ?");
            args.add(o.start());
        }
        if (o.startAfter() != null) {
            sql.append(" AND key > ?");
            args.add(o.startAfter());
        }
        if (o.end() != null) {
            sql.append(" AND key < ?");
            args.add(o.end());
        }
        if (o.prefix() != null && !o.prefix().isEmpty()) {
            sql.append(" AND key >= ?");
            args.add(o.prefix());
            String upper = PrefixBound.upperBound(o.prefix());
            if (upper != null) {
                sql.append(" AND key < ?");
                args.add(upper);
            }
        }
        sql.append(" ORDER BY key").append(o.reverse() ? " DESC" : "");
        if (o.limit() > 0) {
            sql.append(" LIMIT ").append(o.limit());
        }
        try {
            PreparedStatement ps = db.prepared(sql.toString());
            for (int i = 0; i < args.size(); i++) {
                ps.setString(i + 1, args.get(i));
            }
            List<KvEntry> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new KvEntry(rs.getString(1), rs.getBytes(2)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new StorageException(SqliteCellStorage.cleanMessage(e), e);
        }
    }

    void deleteAll() {
        if (exists()) {
            db.beginTurnTxn();
            db.exec("DELETE FROM _cf_KV");
        }
    }

    private static void checkKeys(List<String> keys) {
        if (keys.size() > MAX_KEYS_PER_CALL) {
            throw new StorageException("too many keys in one call: " + keys.size() + " (limit " + MAX_KEYS_PER_CALL + ")");
        }
        for (String k : keys) {
            if (k == null) {
                throw new StorageException("a key must be a string");
            }
            if (SqliteCellStorage.utf8(k).length > MAX_KEY_BYTES) {
                throw new StorageException("key '" + abbreviate(k) + "' is longer than " + MAX_KEY_BYTES + " bytes");
            }
        }
    }

    private static String abbreviate(String k) {
        return k.length() > 40 ? k.substring(0, 40) + "…" : k;
    }
}
