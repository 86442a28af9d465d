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
import dev.cellgate.core.spi.replication.Replicator;
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
 * Durable Objects on the node's real cell host — runtime-core's {@link Cells}: a serial executor
 * per cell, the output gate, real SQLite storage, ownership in a file:// bucket, hibernatable
 * WebSockets kept by the host, idle eviction and hibernation by the sweeper — in a temporary
 * directory, with or without a replicator (without, a local commit counts as durable). A Worker's
 * stubs and the cells' own stubs go through it.
 */
public final class HostedCells implements StubChannel, AutoCloseable {
    private final Path dir;
    private final FileBucketStore bucket;
    private final ExecutorService io;
    private final Cells cells;
    private final java.util.function.Supplier<LoadedScript> script;

    /** Cells that stay resident (an hour's idle eviction), as most semantics tests want. */
    public HostedCells(Vertx vertx, LoadedScript script) throws IOException {
        this(vertx, () -> script, 3_600_000, null, true);
    }

    /** @param idleEvictMs how long a cell stays idle before the sweeper evicts (or hibernates) it */
    public HostedCells(Vertx vertx, LoadedScript script, long idleEvictMs) throws IOException {
        this(vertx, () -> script, idleEvictMs, null, true);
    }

    /** Cells that run whatever {@code current} names: a test switches deployments through it. */
    public HostedCells(Vertx vertx, java.util.function.Supplier<LoadedScript> current) throws IOException {
        this(vertx, current, 3_600_000, null, true);
    }

    /**
     * @param replicator null: a local commit counts as durable
     * @param outputGate false is {@code CELLD_OUTPUT_GATE=0}: results and frames do not wait for durability
     */
    public HostedCells(Vertx vertx, LoadedScript script, long idleEvictMs, Replicator replicator, boolean outputGate) throws IOException {
        this(vertx, () -> script, idleEvictMs, replicator, outputGate);
    }

    private HostedCells(Vertx vertx, java.util.function.Supplier<LoadedScript> current, long idleEvictMs, Replicator replicator,
                        boolean outputGate) throws IOException {
        this.script = current;
        this.dir = Files.createTempDirectory("cellgate-hosted-cells");
        FileBucketStore bucket = new FileBucketStore("file://" + dir.resolve("bucket"), dir.resolve("bucket"), false);
        this.io = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "hosted-cells-io");
            t.setDaemon(true);
            return t;
        });
        OwnershipStore ownership = new OwnershipStore(bucket, new Self("test-node", "session-1"), Ticker.SYSTEM);
        this.bucket = bucket;
        CellsConfig config = new CellsConfig(dir.resolve("watch"), outputGate, idleEvictMs, OptionalInt.empty(), OptionalInt.empty(), 0, 4);
        // Alarms are indexed in the bucket as on a node, so the fleet's waker could find them.
        this.cells = new Cells(vertx, config, ownership, replicator, current, Ticker.SYSTEM, io, () -> true, new WakeIndex(bucket));
        cells.stubs(this);
        cells.startSweeper();
    }

    public Cells cells() {
        return cells;
    }

    /** The fleet bucket (ownership records). */
    public FileBucketStore bucket() {
        return bucket;
    }

    /** A Worker of the same script whose stubs reach these cells, on its own serial executor. */
    public Worker worker() {
        SerialHost host = new SerialHost("worker", this, null);
        return new Worker(host, script.get().newWorker(host));
    }

    @Override
    public CompletableFuture<HttpResponseData> fetch(CellIdentity target, HttpRequestData request) {
        return cells.fetch(target, request);
    }

    @Override
    public CompletableFuture<byte[]> call(CellIdentity target, String method, byte[] arguments) {
        return cells.call(target, method, arguments);
    }

    private volatile StubChannel exportRoute;

    /** Where calls on objects exported by other "nodes" go (a test's stand-in for the peer link); none by default. */
    public void exportRoute(StubChannel route) {
        this.exportRoute = route;
    }

    @Override
    public CompletableFuture<byte[]> callExport(String node, String key, String op, String pathJson, byte[] arguments) {
        StubChannel route = exportRoute;
        return route == null ? StubChannel.noRouteToExport(node)
                : route.callExport(node, key, op, pathJson, arguments);
    }

    @Override
    public CompletableFuture<Void> releaseExport(String node, String key) {
        StubChannel route = exportRoute;
        return route == null ? CompletableFuture.completedFuture(null) : route.releaseExport(node, key);
    }

    /** Releases every resident cell (final flush, ownership back), then deletes the directory. */
    @Override
    public void close() throws Exception {
        List<String> scopes = cells.residentScopes();
        CompletableFuture.allOf(scopes.stream().map(s -> cells.release(s, "test over")).toArray(CompletableFuture[]::new))
                .get(30, TimeUnit.SECONDS);
        cells.stopAcceptingWork();
        io.shutdown();
        deleteTree();
    }

    /** Best effort: a cell's last files may still be settling after a background eviction. */
    private void deleteTree() throws InterruptedException {
        for (int attempt = 0; attempt < 20; attempt++) {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
                return;
            } catch (IOException | java.io.UncheckedIOException e) {
                Thread.sleep(100);
            }
        }
    }

    /** A Worker instance on its own executor, events delivered there as the SPI requires. */
    public record Worker(SerialHost host, WorkerInstance instance) implements AutoCloseable {
        public CompletableFuture<HttpResponseData> send(HttpRequestData request) {
            return CompletableFuture.supplyAsync(() -> instance.fetch(request), host.executor()).thenCompose(f -> f);
        }

        @Override
        public void close() throws Exception {
            host.executor().submit(instance::close).get();
            host.close();
        }
    }
}
