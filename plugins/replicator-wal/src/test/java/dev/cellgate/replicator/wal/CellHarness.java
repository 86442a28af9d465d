package dev.cellgate.replicator.wal;

import dev.cellgate.core.spi.replication.CellReplica;
import dev.cellgate.core.spi.replication.OwnershipCheck;
import dev.cellgate.core.spi.replication.Replicator;
import dev.cellgate.core.spi.replication.WalCheckpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A tiny cell host for tests: one thread as the cell's executor, one JDBC connection opened with
 * the pragmas the README prescribes, writes in transactions, {@code committed()} after each.
 */
final class CellHarness implements AutoCloseable {
    final Path db;
    final ExecutorService exec;
    private Connection conn;
    private CellReplica replica;

    @FunctionalInterface
    interface SqlWork {
        void run(Connection c) throws SQLException;
    }

    @FunctionalInterface
    interface SqlRead<T> {
        T run(Connection c) throws SQLException;
    }

    private CellHarness(Path db) {
        this.db = db;
        this.exec = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "cell-" + db.getFileName());
            t.setDaemon(true);
            return t;
        });
    }

    /** Opens (creating if needed) the database with the host pragmas. */
    static CellHarness open(Path db) throws Exception {
        CellHarness h = new CellHarness(db);
        h.onCell(() -> {
            Files.createDirectories(db.toAbsolutePath().getParent());
            h.conn = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
            try (Statement s = h.conn.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA wal_autocheckpoint=0");
                s.execute("PRAGMA synchronous=NORMAL");
            }
            return null;
        });
        return h;
    }

    CellReplica attach(Replicator r, String scope, long epoch, OwnershipCheck own) throws Exception {
        return onCell(() -> {
            replica = r.attach(scope, epoch, db, exec, own, WalCheckpoint.through(conn));
            return replica;
        });
    }

    /** Swaps in a wrapper of the attached replica (the broken variants). */
    void wrapReplica(java.util.function.UnaryOperator<CellReplica> wrap) {
        replica = wrap.apply(replica);
    }

    CellReplica replica() {
        return replica;
    }

    /** Runs {@code work} in one transaction on the cell thread; the future is the replica's {@code committed()}. */
    CompletableFuture<Void> tx(SqlWork work) {
        return txHandle(work).thenCompose(f -> f);
    }

    /** Like {@link #tx}, but yields the very future {@code committed()} returned (shared by a group commit). */
    CompletableFuture<CompletableFuture<Void>> txHandle(SqlWork work) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                conn.setAutoCommit(false);
                work.run(conn);
                conn.commit();
            } catch (SQLException e) {
                try {
                    conn.rollback();
                } catch (SQLException ignored) {
                    // the original error is what matters
                }
                throw new IllegalStateException(e);
            } finally {
                try {
                    conn.setAutoCommit(true);
                } catch (SQLException ignored) {
                    // connection broken: the next call reports it
                }
            }
            return replica.committed();
        }, exec);
    }

    CompletableFuture<Void> sql(String... statements) {
        return tx(c -> {
            try (Statement s = c.createStatement()) {
                for (String q : statements) {
                    s.execute(q);
                }
            }
        });
    }

    /** One statement in autocommit mode (VACUUM cannot run inside a transaction), then {@code committed()}. */
    CompletableFuture<Void> autocommit(String statement) {
        return CompletableFuture.supplyAsync(() -> {
            try (Statement s = conn.createStatement()) {
                s.execute(statement);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return replica.committed();
        }, exec).thenCompose(f -> f);
    }

    CompletableFuture<Void> flush() {
        return CompletableFuture.supplyAsync(() -> replica.flush(), exec).thenCompose(f -> f);
    }

    void detach() throws Exception {
        onCell(() -> {
            replica.detach();
            return null;
        });
    }

    <T> T read(SqlRead<T> q) throws Exception {
        return onCell(() -> q.run(conn));
    }

    List<String> dump() throws Exception {
        return read(CellHarness::dump);
    }

    /** Every table's rows, ordered: a content fingerprint to compare two databases. */
    static List<String> dump(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        List<String> tables = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT type, name, sql FROM sqlite_schema ORDER BY type, name")) {
            while (rs.next()) {
                out.add("schema " + rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3));
                if (rs.getString(1).equals("table")) {
                    tables.add(rs.getString(2));
                }
            }
        }
        for (String t : tables) {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM \"" + t + "\" ORDER BY 1")) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    StringBuilder b = new StringBuilder(t).append(':');
                    for (int i = 1; i <= n; i++) {
                        Object v = rs.getObject(i);
                        b.append(v instanceof byte[] bytes ? java.util.Arrays.hashCode(bytes) + "#" + bytes.length : String.valueOf(v)).append('|');
                    }
                    out.add(b.toString());
                }
            }
        }
        return out;
    }

    static List<String> dumpFile(Path db) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath())) {
            return dump(c);
        }
    }

    <T> T onCell(java.util.concurrent.Callable<T> task) throws Exception {
        try {
            return exec.submit(task).get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof Exception ex) {
                throw ex;
            }
            throw e;
        }
    }

    /** Closes the connection (no detach: that is the caller's choice) and the executor. */
    @Override
    public void close() throws Exception {
        if (!exec.isShutdown()) {
            onCell(() -> {
                if (conn != null) {
                    conn.close();
                }
                return null;
            });
            exec.shutdown();
        }
    }

    /** Deletes the database and every file next to it that belongs to it. */
    static void deleteLocal(Path db) throws Exception {
        for (String suffix : List.of("", "-wal", "-shm", ".replica.json")) {
            Files.deleteIfExists(db.resolveSibling(db.getFileName() + suffix));
        }
    }
}
