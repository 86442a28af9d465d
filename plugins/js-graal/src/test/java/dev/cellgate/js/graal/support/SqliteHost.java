package dev.cellgate.js.graal.support;

import dev.cellgate.core.cell.storage.SqliteCellStorage;
import dev.cellgate.core.spi.js.CellHost;
import dev.cellgate.core.spi.js.CellStorage;
import dev.cellgate.core.spi.js.StubChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * One cell's host for direct engine tests: real {@link SqliteCellStorage} on a temp file, and a
 * serial executor that ends every task with {@code endTurn()} as the node's cell executor does.
 * A failed commit (a transaction left open, say) is recorded in {@link #commitFailures()} instead
 * of resetting the cell, so tests can assert there was none.
 */
public final class SqliteHost implements CellHost, AutoCloseable {
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "sqlite-host");
        t.setDaemon(true);
        return t;
    });
    private final Path dir;
    private final SqliteCellStorage storage;
    private final List<String> commitFailures = new CopyOnWriteArrayList<>();
    private final Executor executor = task -> thread.execute(() -> {
        try {
            task.run();
        } finally {
            endTurn();
        }
    });

    public SqliteHost() throws IOException {
        this.dir = Files.createTempDirectory("cellgate-cell");
        this.storage = new SqliteCellStorage(dir.resolve("cell.sqlite"));
    }

    private void endTurn() {
        try {
            storage.endTurn();
        } catch (RuntimeException e) {
            commitFailures.add(e.getMessage());
        }
    }

    @Override
    public Executor executor() {
        return executor;
    }

    @Override
    public StubChannel stubs() {
        return null;
    }

    @Override
    public CellStorage storage() {
        return storage;
    }

    public List<String> commitFailures() {
        return commitFailures;
    }

    /** Runs {@code task} on the cell's executor (as a turn) and waits for its value. */
    public <T> T on(java.util.concurrent.Callable<T> task) throws Exception {
        java.util.concurrent.CompletableFuture<T> out = new java.util.concurrent.CompletableFuture<>();
        executor.execute(() -> {
            try {
                out.complete(task.call());
            } catch (Exception e) {
                out.completeExceptionally(e);
            }
        });
        return out.get(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        on(() -> {
            storage.close();
            return null;
        });
        thread.shutdown();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
