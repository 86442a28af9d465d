package dev.cellgate.core.cell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.fleet.Self;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.store.file.FileBucketStore;
import dev.cellgate.core.time.Ticker;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A call still in flight on a draining node follows its cell to a peer. When the peer it picked
 * is not the owner and names the owner, the next try must go to that owner: the draining node
 * cannot read the record itself, and asking the same placement target again only burns the
 * reroute budget (a rolling restart once showed these calls failing after 5 s).
 */
class CellRouterDrainTest {
    @TempDir
    Path dir;
    Vertx vertx;
    FileBucketStore bucket;

    @BeforeEach
    void open() {
        vertx = Vertx.vertx();
        bucket = new FileBucketStore("file://" + dir.resolve("bucket"), dir.resolve("bucket"), false);
    }

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        bucket.close();
    }

    @Test
    void aDrainingNodeFollowsTheOwnerAPeerNamed() throws Exception {
        Cells cells = new Cells(vertx, new CellsConfig(dir.resolve("watch"), true, 60_000, OptionalInt.empty(), OptionalInt.empty(), 0, 4),
                new OwnershipStore(bucket, new Self("n1", "s1"), Ticker.SYSTEM), null, FakeScript::new, Ticker.SYSTEM,
                Executors.newFixedThreadPool(2), () -> true, new WakeIndex(bucket));
        cells.stopAcceptingWork();
        List<String> asked = new CopyOnWriteArrayList<>();
        CellRouter router = new CellRouter(cells, vertx);
        router.forwarder(new Forwarder() {
            @Override
            public CompletableFuture<HttpResponseData> fetch(String node, CellIdentity id, HttpRequestData request) {
                throw new UnsupportedOperationException();
            }

            @Override
            public CompletableFuture<byte[]> call(String node, CellIdentity id, String method, byte[] arguments) {
                asked.add(node);
                if (node.equals("owner")) {
                    return CompletableFuture.completedFuture(new byte[] {42});
                }
                return CompletableFuture.failedFuture(new RerouteException("node " + node + " is not the owner", 1, "owner"));
            }

            @Override
            public CompletableFuture<Void> wake(String node, CellIdentity id) {
                throw new UnsupportedOperationException();
            }

            @Override
            public String placementTarget() {
                return "placed";
            }
        });

        byte[] result = router.call(new CellIdentity("Counter", "ab".repeat(32), null), "get", new byte[0]).get(10, TimeUnit.SECONDS);

        assertThat(result).containsExactly(42);
        assertThat(asked).containsExactly("placed", "owner");
    }
}
