package dev.cellgate.js.graal.support;

import dev.cellgate.core.cell.Cells;
import dev.cellgate.core.cell.CellsConfig;
import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.fleet.Self;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.StubChannel;
import dev.cellgate.core.spi.js.WorkerInstance;
import dev.cellgate.core.store.file.FileBucketStore;
import dev.cellgate.core.time.Ticker;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Durable Objects on the node's real cell host: runtime-core's {@link Cells} (serial executor per
 * cell that commits the turn after every task, output gate, alarms with retries on Vert.x timers,
 * activation with ownership in a real file:// bucket) and the real SQLite storage
 * ({@code SqliteCellStorage}) in a temporary directory. No replicator: a local commit counts as
 * durable, as on a node without one. A Worker's stubs and the cells' own stubs go through it.
 */
public final class RealCells implements StubChannel, AutoCloseable {
    private final Path dir;
    private final FileBucketStore bucket;
    private final ExecutorService io;
    private final Cells cells;
    private final java.util.function.Supplier<LoadedScript> script;

    public RealCells(Vertx vertx, LoadedScript script) throws IOException {
        this(vertx, () -> script);
    }

    /** Cells that run whatever {@code current} names: a test switches deployments through it. */
    public RealCells(Vertx vertx, java.util.function.Supplier<LoadedScript> current) throws IOException {
        this.script = current;
        this.dir = Files.createTempDirectory("cellgate-cells");
        this.bucket = new FileBucketStore("file://" + dir.resolve("bucket"), dir.resolve("bucket"), false);
        this.io = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "real-cells-io");
            t.setDaemon(true);
            return t;
        });
        OwnershipStore ownership = new OwnershipStore(bucket, new Self("test-node", "session-1"), Ticker.SYSTEM);
        CellsConfig config = new CellsConfig(dir.resolve("watch"), true, 3_600_000, OptionalInt.empty(), OptionalInt.empty(), 0, 4);
        this.cells = new Cells(vertx, config, ownership, null, current, Ticker.SYSTEM, io, () -> true, new WakeIndex(bucket));
        cells.stubs(this);
    }

    /** A Worker of the same script whose stubs reach these cells, on its own serial executor. */
    public HostedWorker worker() {
        SerialHost host = new SerialHost("worker", this, null);
        return new HostedWorker(host, script.get().newWorker(host));
    }

    /** The cell host itself (to move its cells to a new deployment, for one). */
    public Cells cells() {
        return cells;
    }

    @Override
    public CompletableFuture<HttpResponseData> fetch(CellIdentity target, HttpRequestData request) {
        return cells.fetch(target, request);
    }

    @Override
    public CompletableFuture<byte[]> call(CellIdentity target, String method, byte[] arguments) {
        return cells.call(target, method, arguments);
    }

    /** Releases every resident cell (final flush, ownership back), then deletes the directory. */
    @Override
    public void close() throws Exception {
        List<String> scopes = cells.residentScopes();
        CompletableFuture.allOf(scopes.stream().map(s -> cells.release(s, "test over")).toArray(CompletableFuture[]::new))
                .get(30, TimeUnit.SECONDS);
        cells.stopAcceptingWork();
        io.shutdown();
        bucket.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** A Worker instance and its host. */
    public record HostedWorker(SerialHost host, WorkerInstance worker) implements AutoCloseable {
        public CompletableFuture<HttpResponseData> send(HttpRequestData request) {
            return CompletableFuture.supplyAsync(() -> worker.fetch(request), host.executor()).thenCompose(f -> f);
        }

        @Override
        public void close() throws Exception {
            host.executor().submit(worker::close).get();
            host.close();
        }
    }
}
