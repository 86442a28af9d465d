package dev.cellgate.core.bindings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.store.file.FileBucketStore;
import dev.cellgate.core.time.Ticker;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A KV put is in the bucket before its promise resolves (SPEC §17): over a bucket whose writes land
 * only after 300 ms, the moment {@code put} resolves another node (a second store over the same
 * directory) reads the value. The deliberately broken provider, which acknowledges at once, is caught.
 */
class KvPutDurabilityTest {
    @TempDir
    Path dir;

    /** Writes land 300 ms after they are asked for. */
    private static final class SlowWrites extends ForwardingBucketStore {
        SlowWrites(BucketStore inner) {
            super(inner);
        }

        @Override
        public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
            return CompletableFuture.supplyAsync(() -> null, CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS))
                    .thenCompose(x -> inner.put(key, bytes));
        }
    }

    private String readOnAnotherNodeRightAfterPut(boolean broken) {
        EnvBinding b = new EnvBinding("KV", "kv_namespace", new JsonObject().put("namespace_id", "durable"));
        try (FileBucketStore writerStore = new FileBucketStore(dir.toUri().toString(), dir, false);
             FileBucketStore readerStore = new FileBucketStore(dir.toUri().toString(), dir, false)) {
            SlowWrites slow = new SlowWrites(writerStore);
            KvNamespaceProvider p = broken ? KvNamespaceProvider.brokenEarlyAckForTests(slow, Ticker.SYSTEM)
                    : new KvNamespaceProvider(slow, Ticker.SYSTEM);
            KvNamespaceHost writer = (KvNamespaceHost) p.open(b, null);
            KvNamespaceHost reader = (KvNamespaceHost) new KvNamespaceProvider(readerStore, Ticker.SYSTEM).open(b, null);
            writer.put("k", "acknowledged".getBytes(StandardCharsets.UTF_8), Double.NaN, Double.NaN, null).toCompletableFuture().join();
            KvNamespaceHost.Entry e = reader.get("k", Double.NaN).toCompletableFuture().join();
            String seen = e == null ? null : StandardCharsets.UTF_8.decode(e.value()).toString();
            try {
                Thread.sleep(400); // let a late write land before the stores close
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
            return seen;
        }
    }

    @Test
    void aResolvedPutIsReadOnAnotherNode() {
        assertThat(readOnAnotherNodeRightAfterPut(false)).isEqualTo("acknowledged");
    }

    @Test
    void theBrokenEarlyAckIsCaught() {
        assertThat(readOnAnotherNodeRightAfterPut(true)).as("the early-ack variant must lose the read that aResolvedPutIsReadOnAnotherNode makes")
                .isNull();
    }
}
