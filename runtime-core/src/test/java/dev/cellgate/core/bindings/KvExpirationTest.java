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

/** KV expirations on an injected clock: an entry is served until its second, then reads and lists as gone. */
class KvExpirationTest {
    @TempDir
    Path dir;

    @Test
    void anEntryIsGoneOnceItsExpirationPasses() {
        AtomicLong now = new AtomicLong(1_800_000_000_000L);
        try (FileBucketStore bucket = new FileBucketStore(dir.toUri().toString(), dir, false)) {
            KvNamespaceHost kv = (KvNamespaceHost) new KvNamespaceProvider(bucket, now::get)
                    .open(new EnvBinding("KV", "kv_namespace", new JsonObject().put("namespace_id", "ns")), null);
            kv.put("ttl", "v".getBytes(StandardCharsets.UTF_8), Double.NaN, 60, null).toCompletableFuture().join();
            kv.put("abs", "v".getBytes(StandardCharsets.UTF_8), 1_800_000_000 + 120, Double.NaN, "{\"m\":1}").toCompletableFuture().join();
            kv.put("forever", "v".getBytes(StandardCharsets.UTF_8), Double.NaN, Double.NaN, null).toCompletableFuture().join();
            JsonObject listed = new JsonObject(kv.list(null, Double.NaN, null).toCompletableFuture().join());
            assertThat(listed.getJsonArray("keys").getJsonObject(2)).isEqualTo(new JsonObject().put("name", "ttl").put("expiration", 1_800_000_060L));

            now.addAndGet(59_999);
            assertThat(kv.get("ttl", Double.NaN).toCompletableFuture().join()).isNotNull();
            now.addAndGet(1);
            assertThat(kv.get("ttl", Double.NaN).toCompletableFuture().join()).isNull();
            assertThat(kv.get("abs", Double.NaN).toCompletableFuture().join()).isNotNull();
            now.addAndGet(60_000);
            assertThat(kv.get("abs", Double.NaN).toCompletableFuture().join()).isNull();
            JsonObject after = new JsonObject(kv.list(null, Double.NaN, null).toCompletableFuture().join());
            assertThat(after.getJsonArray("keys").size()).isEqualTo(1);
            assertThat(after.getJsonArray("keys").getJsonObject(0).getString("name")).isEqualTo("forever");
            assertThat(after.getBoolean("list_complete")).isTrue();
        }
    }
}
