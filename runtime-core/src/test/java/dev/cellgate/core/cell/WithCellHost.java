package dev.cellgate.core.cell;

import dev.cellgate.core.store.file.FileBucketStore;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** What a test of the cell host starts from: Vert.x, a file bucket in a temporary directory, and a Java stand-in for JavaScript. */
abstract class WithCellHost {
    @TempDir
    Path dir;
    Vertx vertx;
    FileBucketStore bucket;
    FakeScript script = new FakeScript();

    @BeforeEach
    void openHost() {
        vertx = Vertx.vertx();
        bucket = new FileBucketStore("file://" + dir.resolve("bucket"), dir.resolve("bucket"), false);
    }

    @AfterEach
    void closeHost() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        bucket.close();
    }
}
