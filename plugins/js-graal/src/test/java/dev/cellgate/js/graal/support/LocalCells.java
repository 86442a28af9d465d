package dev.cellgate.js.graal.support;

import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.CellInstance;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.js.StubChannel;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/** A stub channel that runs every cell in this process, each on its own executor, constructed on first use. */
public final class LocalCells implements StubChannel, AutoCloseable {
    private final LoadedScript script;
    private final Map<String, Cell> cells = new ConcurrentHashMap<>();

    record Cell(SerialHost host, CellInstance instance) {
    }

    public LocalCells(LoadedScript script) {
        this.script = script;
    }

    private <T> CompletableFuture<T> onCell(CellIdentity id, Function<CellInstance, CompletableFuture<T>> op) {
        CompletableFuture<Cell> cell = new CompletableFuture<>();
        Cell existing = cells.get(id.scope());
        if (existing != null) {
            cell.complete(existing);
        } else {
            SerialHost host = new SerialHost(id.className(), this, new MemoryStorage());
            host.executor().execute(() -> {
                try {
                    Cell c = cells.computeIfAbsent(id.scope(), k -> {
                        try {
                            return new Cell(host, script.newCell(id.className(), id, host));
                        } catch (Exception e) {
                            throw new StubCallException("cell " + id.scope() + " did not start: " + e.getMessage(), false, e);
                        }
                    });
                    cell.complete(c);
                } catch (RuntimeException e) {
                    cell.completeExceptionally(e);
                }
            });
        }
        return cell.thenCompose(c -> CompletableFuture.supplyAsync(() -> op.apply(c.instance()), c.host().executor()).thenCompose(f -> f));
    }

    @Override
    public CompletableFuture<HttpResponseData> fetch(CellIdentity target, HttpRequestData request) {
        return onCell(target, c -> c.fetch(request));
    }

    @Override
    public CompletableFuture<byte[]> call(CellIdentity target, String method, byte[] arguments) {
        return onCell(target, c -> c.call(method, arguments));
    }

    /** One process, one engine: no object lives on another node. */
    @Override
    public CompletableFuture<byte[]> callExport(String node, String key, String op, String pathJson, byte[] arguments) {
        return StubChannel.noRouteToExport(node);
    }

    @Override
    public CompletableFuture<Void> releaseExport(String node, String key) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void close() throws Exception {
        for (Cell c : cells.values()) {
            c.host().executor().submit(c.instance()::close).get();
            c.host().close();
        }
    }
}
