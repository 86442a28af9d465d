package dev.cellgate.core.cell.storage;

import dev.cellgate.core.spi.js.CellStorage;
import dev.cellgate.core.spi.js.KvEntry;
import dev.cellgate.core.spi.js.KvListOptions;
import dev.cellgate.core.spi.js.SqlResult;
import dev.cellgate.core.spi.js.StorageException;
import dev.cellgate.core.spi.replication.WalCheckpoint;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * A cell's storage on its own SQLite file. Writes join an implicit transaction opened lazily by
 * the first write of a turn and committed by {@link #endTurn()}: everything one event writes
 * before it yields commits together (Cloudflare's automatic write coalescing), and the host makes
 * that commit durable before a later response leaves. Reads run outside it. Not thread-safe:
 * used only on the cell's executor.
 */
public final class SqliteCellStorage implements CellStorage, AutoCloseable {
    static final int MAX_SQL_LENGTH = 100 * 1024;
    static final int MAX_BINDINGS = 100;

    private final Path file;
    private final Connection conn;
    private final StatementCache statements;
    private final KvTable kv;
    private final MetaTable meta;
    private boolean inTurnTxn;
    private int savepoints;
    private boolean alarmRunning;
    private boolean alarmChanged;

    public SqliteCellStorage(Path file) {
        this.file = file;
        try {
            this.conn = SqliteFiles.open(file);
        } catch (SQLException e) {
            throw new StorageException("cannot open the database " + file + ": " + e.getMessage(), e);
        }
        this.statements = new StatementCache(conn);
        this.kv = new KvTable(this);
        this.meta = new MetaTable(this);
    }

    public Path file() {
        return file;
    }

    // ------------------------------------------------------------------ SQL API

    @Override
    public SqlResult sql(String query, Object[] bindings) {
        if (query == null) {
            throw new StorageException("sql.exec() needs a query string");
        }
        if (query.length() > MAX_SQL_LENGTH) {
            throw new StorageException("SQL statement too long: " + query.length() + " characters (limit " + MAX_SQL_LENGTH + ")");
        }
        Object[] b = bindings == null ? new Object[0] : bindings;
        if (b.length > MAX_BINDINGS) {
            throw new StorageException("too many SQL variables: " + b.length + " (limit " + MAX_BINDINGS + ")");
        }
        List<SqlText.Statement> stmts;
        try {
            stmts = SqlText.parse(query);
        } catch (IllegalArgumentException e) {
            throw new StorageException(e.getMessage());
        }
        SqlResult last = null;
        for (int i = 0; i < stmts.size(); i++) {
            SqlText.Statement st = stmts.get(i);
            boolean isLast = i == stmts.size() - 1;
            if (!isLast && b.length > 0 && countParameters(st) > 0) {
                throw new StorageException("bindings apply to the last statement only; statement " + (i + 1) + " has parameters");
            }
            last = run(st, isLast ? b : new Object[0]);
        }
        return last;
    }

    private static int countParameters(SqlText.Statement st) {
        return (int) st.text().chars().filter(c -> c == '?').count();
    }

    private SqlResult run(SqlText.Statement st, Object[] b) {
        if (st.writes()) {
            beginTurnTxn();
        }
        try {
            PreparedStatement ps = statements.get(st.text());
            if (ps.getParameterMetaData().getParameterCount() != b.length) {
                // workerd's text; sqlite-jdbc would bind NULL for a missing value, or fail on an index
                throw new StorageException("Wrong number of parameter bindings for SQL query.");
            }
            for (int i = 0; i < b.length; i++) {
                bind(ps, i + 1, b[i]);
            }
            boolean hasRows = ps.execute();
            if (!hasRows) {
                long changed = Math.max(0, ps.getUpdateCount());
                if (st.keyword().equals("CREATE") || st.keyword().equals("DROP") || st.keyword().equals("ALTER")) {
                    statements.clear();
                    changed = 0;
                }
                return new SqlResult(List.of(), List.of(), 0, changed);
            }
            try (ResultSet rs = ps.getResultSet()) {
                ResultSetMetaData md = rs.getMetaData();
                int cols = md.getColumnCount();
                List<String> names = new ArrayList<>(cols);
                for (int c = 1; c <= cols; c++) {
                    names.add(md.getColumnLabel(c));
                }
                List<Object[]> rows = new ArrayList<>();
                while (rs.next()) {
                    Object[] row = new Object[cols];
                    for (int c = 1; c <= cols; c++) {
                        row[c - 1] = value(rs, c);
                    }
                    rows.add(row);
                }
                long written = st.writes() ? Math.max(0, changesOfLast()) : 0;
                return new SqlResult(names, rows, rows.size(), written);
            }
        } catch (SQLException e) {
            throw new StorageException(cleanMessage(e), e);
        }
    }

    /** Rows changed by the last statement that returned rows (INSERT … RETURNING). */
    private long changesOfLast() throws SQLException {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT changes()")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private static Object value(ResultSet rs, int c) throws SQLException {
        Object o = rs.getObject(c);
        if (o == null) {
            return null;
        }
        return switch (o) {
            case Integer i -> (long) i;
            case Long l -> l;
            case Double d -> d;
            case Float f -> (double) f;
            case String s -> s;
            case byte[] bytes -> bytes;
            default -> rs.getMetaData().getColumnType(c) == Types.BLOB ? rs.getBytes(c) : o.toString();
        };
    }

    static void bind(PreparedStatement ps, int i, Object v) throws SQLException {
        switch (v) {
            case null -> ps.setNull(i, Types.NULL);
            case Long l -> ps.setLong(i, l);
            case Integer n -> ps.setLong(i, n);
            case Double d -> {
                if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 9.007199254740992E15) {
                    ps.setLong(i, d.longValue()); // JS numbers that are integers bind as INTEGER, as in workerd
                } else {
                    ps.setDouble(i, d);
                }
            }
            case Float f -> ps.setDouble(i, f);
            case String s -> ps.setString(i, s);
            case byte[] bytes -> ps.setBytes(i, bytes);
            default -> throw new StorageException("cannot bind a value of type " + v.getClass().getSimpleName()
                    + " to SQL (use null, number, string or ArrayBuffer)");
        }
    }

    @Override
    public long databaseSize() {
        try (Statement s = conn.createStatement();
             ResultSet rs = s.executeQuery("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")) {
            return rs.next() ? rs.getLong(1) : 0;
        } catch (SQLException e) {
            throw new StorageException(cleanMessage(e), e);
        }
    }

    // ------------------------------------------------------------------ transactions

    @Override
    public void beginNested() {
        beginTurnTxn();
        exec("SAVEPOINT cg_sp" + (++savepoints));
    }

    @Override
    public void commitNested() {
        requireNested();
        exec("RELEASE cg_sp" + (savepoints--));
    }

    @Override
    public void rollbackNested() {
        requireNested();
        exec("ROLLBACK TO cg_sp" + savepoints);
        exec("RELEASE cg_sp" + (savepoints--));
        tablesMayBeGone();
    }

    /** The platform tables are created lazily inside a transaction; a rollback can take them away again. */
    private void tablesMayBeGone() {
        kv.forgetWhetherItExists();
        meta.forgetWhetherItExists();
    }

    private void requireNested() {
        if (savepoints == 0) {
            throw new StorageException("no transaction is open");
        }
    }

    /** Opens the turn's implicit transaction before its first write. */
    void beginTurnTxn() {
        if (!inTurnTxn) {
            exec("BEGIN IMMEDIATE");
            inTurnTxn = true;
        }
    }

    /** True when the current turn has written (a commit is pending). */
    public boolean dirty() {
        return inTurnTxn;
    }

    /**
     * Ends the turn: commits its writes. Returns true when something was committed (the host then
     * asks the replicator to make it durable). Open nested transactions at a turn's end are a bug in
     * the engine (transactionSync is synchronous): they are rolled back and reported.
     */
    public boolean endTurn() {
        if (!inTurnTxn) {
            return false;
        }
        if (savepoints > 0) {
            savepoints = 0;
            exec("ROLLBACK");
            inTurnTxn = false;
            tablesMayBeGone();
            throw new StorageException("a transaction was still open at the end of the event; it was rolled back");
        }
        exec("COMMIT");
        inTurnTxn = false;
        return true;
    }

    /** Throws away the turn's uncommitted writes (the event failed to settle, or the cell is being reset). */
    public void abortTurn() {
        if (inTurnTxn) {
            savepoints = 0;
            exec("ROLLBACK");
            inTurnTxn = false;
            tablesMayBeGone();
        }
    }

    void exec(String sql) {
        try (Statement s = conn.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new StorageException(cleanMessage(e), e);
        }
    }

    PreparedStatement prepared(String sql) throws SQLException {
        return statements.get(sql);
    }

    Connection connection() {
        return conn;
    }

    /** Lent to the replicator, which checkpoints through this connection instead of opening one of its own. */
    public WalCheckpoint walCheckpoint() {
        return WalCheckpoint.through(conn);
    }

    // ------------------------------------------------------------------ KV API

    @Override
    public List<byte[]> kvGet(List<String> keys) {
        return kv.get(keys);
    }

    @Override
    public void kvPut(List<String> keys, List<byte[]> values) {
        kv.put(keys, values);
    }

    @Override
    public int kvDelete(List<String> keys) {
        return kv.delete(keys);
    }

    @Override
    public List<KvEntry> kvList(KvListOptions options) {
        return kv.list(options);
    }

    @Override
    public void kvDeleteAll() {
        kv.deleteAll();
        deleteAlarm();
    }

    // ------------------------------------------------------------------ point-in-time recovery

    /** The bookmark {@code onNextSessionRestoreBookmark} asked the next activation to restore, if any. */
    public java.util.Optional<String> pendingRestore() {
        return meta.getText(MetaTable.RESTORE_BOOKMARK);
    }

    /** Records the restore request in the turn's transaction: it is replicated like any write. */
    public void requestRestore(String bookmark) {
        meta.putText(MetaTable.RESTORE_BOOKMARK, bookmark);
    }

    /** The request was carried out (or the restored state held an older one): forget it. */
    public void clearPendingRestore() {
        meta.delete(MetaTable.RESTORE_BOOKMARK);
    }

    // ------------------------------------------------------------------ alarms

    @Override
    public OptionalLong getAlarm() {
        if (alarmRunning) {
            return OptionalLong.empty(); // Cloudflare: no alarm is visible while alarm() runs, unless re-set
        }
        return meta.getLong(MetaTable.ALARM);
    }

    @Override
    public void setAlarm(long epochMillis) {
        alarmRunning = false;
        alarmChanged = true;
        meta.putLong(MetaTable.ALARM, epochMillis);
    }

    @Override
    public void deleteAlarm() {
        alarmRunning = false;
        alarmChanged = true;
        meta.delete(MetaTable.ALARM);
    }

    /** Whether the alarm was set or deleted since the last call (the host then re-arms its timer). */
    public boolean takeAlarmChanged() {
        boolean c = alarmChanged;
        alarmChanged = false;
        return c;
    }

    /** The stored alarm, ignoring the "alarm running" view (for the host's scheduler). */
    public OptionalLong storedAlarm() {
        return meta.getLong(MetaTable.ALARM);
    }

    /** While the handler for the alarm at {@code at} runs, getAlarm() shows none unless re-set. */
    public void alarmStarted() {
        alarmRunning = true;
    }

    /** The handler finished (or failed): is the alarm still the one that ran (not re-set meanwhile)? */
    public boolean alarmFinished() {
        boolean untouched = alarmRunning;
        alarmRunning = false;
        return untouched;
    }

    @Override
    public void close() {
        try {
            abortTurn();
        } catch (RuntimeException ignored) {
            // closing anyway
        }
        statements.close();
        try {
            conn.close();
        } catch (SQLException ignored) {
            // nothing left to do with a connection we drop
        }
    }

    static String cleanMessage(SQLException e) {
        String m = String.valueOf(e.getMessage());
        // sqlite-jdbc prefixes "[SQLITE_ERROR] SQL error or missing database (...)": keep the part users need.
        int open = m.indexOf('(');
        int close = m.lastIndexOf(')');
        if (m.startsWith("[SQLITE_") && open > 0 && close > open) {
            return m.substring(open + 1, close) + ": " + m.substring(1, m.indexOf(']'));
        }
        return m;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
