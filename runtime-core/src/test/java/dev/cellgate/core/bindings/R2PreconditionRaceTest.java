package dev.cellgate.core.bindings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.store.file.FileBucketStore;
import dev.cellgate.core.time.Ticker;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An R2 precondition holds for one writer only: {@code N} nodes (hosts over one real directory
 * bucket) each put the same new object with {@code onlyIf: {etagDoesNotMatch: "*"}} (create only),
 * and every one of them reads "absent" before any writes (the bucket holds back the reads until all
 * N are in). Exactly one put succeeds and the object is its bytes; the deliberately broken provider,
 * which judges and then overwrites, lets all of them win, and this test catches it.
 */
class R2PreconditionRaceTest {
    private static final int WRITERS = 4;

    @TempDir
    Path dir;

    /** Answers no get until {@code WRITERS} gets have read, so all writers judge the same state. */
    private static final class ReadsTogether extends ForwardingBucketStore {
        final CountDownLatch read = new CountDownLatch(WRITERS);
        final ExecutorService pool = Executors.newFixedThreadPool(WRITERS);

        ReadsTogether(BucketStore inner) {
            super(inner);
        }

        @Override
        public CompletableFuture<Optional<StoredObject>> get(String key) {
            return CompletableFuture.supplyAsync(() -> {
                Optional<StoredObject> o = inner.get(key).join();
                read.countDown();
                try {
                    read.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return o;
            }, pool);
        }
    }

    private List<String> race(boolean broken) {
        FileBucketStore files = new FileBucketStore(dir.toUri().toString(), dir, false);
        ReadsTogether bucket = new ReadsTogether(files);
        R2BucketProvider provider = broken ? R2BucketProvider.brokenConditionalPutForTests(bucket, Ticker.SYSTEM)
                : new R2BucketProvider(bucket, Ticker.SYSTEM);
        EnvBinding b = new EnvBinding("B", "r2_bucket", new JsonObject().put("bucket_name", "race"));
        List<CompletableFuture<String>> puts = new ArrayList<>();
        for (int i = 0; i < WRITERS; i++) {
            R2BucketHost node = (R2BucketHost) provider.open(b, null);
            puts.add(node.put("k", ("writer " + i).getBytes(StandardCharsets.UTF_8), null, null, null,
                    "{\"etagDoesNotMatch\":\"*\"}").toCompletableFuture());
        }
        List<String> winners = new ArrayList<>();
        for (CompletableFuture<String> p : puts) {
            String meta = p.join();
            if (meta != null) {
                winners.add(meta);
            }
        }
        bucket.pool.shutdown();
        files.close();
        return winners;
    }

    @Test
    void exactlyOneCreateOnlyPutWins() {
        List<String> winners = race(false);
        assertThat(winners).hasSize(1);
        R2BucketHost reader = (R2BucketHost) new R2BucketProvider(new FileBucketStore(dir.toUri().toString(), dir, false), Ticker.SYSTEM)
                .open(new EnvBinding("B", "r2_bucket", new JsonObject().put("bucket_name", "race")), null);
        String etag = new JsonObject(winners.get(0)).getString("etag");
        assertThat(new JsonObject(reader.head("k").toCompletableFuture().join()).getString("etag")).isEqualTo(etag);
    }

    @Test
    void theBrokenVariantLetsEveryWriterWinAndIsCaught() {
        assertThat(race(true)).as("the broken variant must be caught by exactlyOneCreateOnlyPutWins").hasSizeGreaterThan(1);
    }
}
