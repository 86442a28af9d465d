package dev.cellgate.core.bindings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.store.file.FileBucketStore;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two nodes' KV on one bucket and one injected clock (SPEC §17): a node reads its own writes back at
 * once; another node's write is seen at once where no copy was cached, else once the copy is older
 * than the read's cacheTtl (default 60 s), as Cloudflare's locations do.
 */
class KvNodeCacheTest {
    @TempDir
    Path dir;

    static KvNamespaceHost node(FileBucketStore bucket, AtomicLong now) {
        return (KvNamespaceHost) new KvNamespaceProvider(bucket, now::get)
                .open(new EnvBinding("KV", "kv_namespace", new JsonObject().put("namespace_id", "ns")), null);
    }

    static String get(KvNamespaceHost kv, String key, double cacheTtl) {
        KvNamespaceHost.Entry e = kv.get(key, cacheTtl).toCompletableFuture().join();
        if (e == null) {
            return null;
        }
        byte[] b = new byte[e.value().remaining()];
        e.value().duplicate().get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    static void put(KvNamespaceHost kv, String key, String v) {
        kv.put(key, v.getBytes(StandardCharsets.UTF_8), Double.NaN, Double.NaN, null).toCompletableFuture().join();
    }

    @Test
    void anotherNodesWriteIsSeenOnceTheCopyIsOlderThanTheCacheTtl() {
        AtomicLong now = new AtomicLong(1_800_000_000_000L);
        try (FileBucketStore bucket = new FileBucketStore(dir.toUri().toString(), dir, false)) {
            KvNamespaceHost a = node(bucket, now);
            KvNamespaceHost b = node(bucket, now);
            put(a, "k", "v1");
            assertThat(get(b, "k", Double.NaN)).as("b held no copy: the bucket answers").isEqualTo("v1");
            assertThat(get(b, "absent", Double.NaN)).isNull();
            put(a, "k", "v2");
            put(a, "absent", "now here");
            assertThat(get(a, "k", Double.NaN)).as("a reads its own put at once").isEqualTo("v2");
            assertThat(get(b, "k", Double.NaN)).as("b's copy is younger than 60 s").isEqualTo("v1");
            assertThat(get(b, "absent", Double.NaN)).as("a missing key is cached too").isNull();
            now.addAndGet(30_000);
            assertThat(get(b, "k", 30)).as("a read asking for 30 s").isEqualTo("v2");
            now.addAndGet(30_000);
            assertThat(get(b, "absent", Double.NaN)).isEqualTo("now here");
            a.delete("k").toCompletableFuture().join();
            assertThat(get(a, "k", Double.NaN)).as("a reads its own delete at once").isNull();
        }
    }

    @Test
    void aReaderThatChangesTheBytesItGotChangesNoOtherRead() {
        AtomicLong now = new AtomicLong(1_800_000_000_000L);
        try (FileBucketStore bucket = new FileBucketStore(dir.toUri().toString(), dir, false)) {
            KvNamespaceHost a = node(bucket, now);
            put(a, "k", "abc");
            a.get("k", Double.NaN).toCompletableFuture().join().value().put(0, (byte) 'X');
            assertThat(get(a, "k", Double.NaN)).isEqualTo("abc");
        }
    }
}
