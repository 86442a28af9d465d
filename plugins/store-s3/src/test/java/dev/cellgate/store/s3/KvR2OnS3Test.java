package dev.cellgate.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.bindings.KvNamespaceHost;
import dev.cellgate.core.bindings.KvNamespaceProvider;
import dev.cellgate.core.bindings.R2BucketHost;
import dev.cellgate.core.bindings.R2BucketProvider;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.time.Ticker;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The KV and R2 bindings on the real S3 server (S3Proxy over Azurite): the longest keys fit its key
 * limit once encoded, and listings page through S3's continuation tokens in key order with
 * prefixes, as on the directory bucket the differential tests use.
 */
class KvR2OnS3Test {
    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void kvKeysUpToTheLimitAndPagedListings() {
        try (BucketStore s3 = S3TestServers.open(S3TestServers.azureEndpoint(), "kvr2-" + UUID.randomUUID() + "/")) {
            KvNamespaceHost kv = (KvNamespaceHost) new KvNamespaceProvider(s3, Ticker.SYSTEM)
                    .open(new EnvBinding("KV", "kv_namespace", new JsonObject().put("namespace_id", "n".repeat(64))), null);
            String longest = "é".repeat(256); // 512 UTF-8 bytes
            kv.put(longest, "max".getBytes(StandardCharsets.UTF_8), Double.NaN, Double.NaN, null).toCompletableFuture().join();
            KvNamespaceHost.Entry e = kv.get(longest, Double.NaN).toCompletableFuture().join();
            byte[] v = new byte[e.value().remaining()];
            e.value().get(v);
            assertThat(text(v)).isEqualTo("max");

            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                String k = String.format("p/%02d-ü", i);
                expected.add(k);
                kv.put(k, new byte[] {(byte) i}, Double.NaN, Double.NaN, "{\"i\":" + i + "}").toCompletableFuture().join();
            }
            kv.put("q", new byte[0], Double.NaN, Double.NaN, null).toCompletableFuture().join(); // shares the first encoded character with "p/"
            List<String> seen = new ArrayList<>();
            String cursor = null;
            int pages = 0;
            do {
                JsonObject page = new JsonObject(kv.list("p/", 10, cursor).toCompletableFuture().join());
                page.getJsonArray("keys").forEach(k -> seen.add(((JsonObject) k).getString("name")));
                cursor = page.getString("cursor");
                assertThat(page.getBoolean("list_complete")).isEqualTo(cursor == null);
                pages++;
            } while (cursor != null);
            assertThat(seen).isEqualTo(expected);
            assertThat(pages).isEqualTo(3);
            JsonArray all = new JsonObject(kv.list(null, Double.NaN, null).toCompletableFuture().join()).getJsonArray("keys");
            assertThat(all.size()).isEqualTo(27);
            assertThat(all.getJsonObject(0).getString("metadata")).isEqualTo("{\"i\":0}");
            assertThat(all.getJsonObject(26).getString("name")).isEqualTo(longest);
        }
    }

    @Test
    void r2ObjectsWithTheLongestStorableNameAndAMultipartUpload() {
        try (BucketStore s3 = S3TestServers.open(S3TestServers.azureEndpoint(), "kvr2-" + UUID.randomUUID() + "/")) {
            R2BucketHost r2 = (R2BucketHost) new R2BucketProvider(s3, Ticker.SYSTEM)
                    .open(new EnvBinding("R2", "r2_bucket", new JsonObject().put("bucket_name", "b".repeat(63))), null);
            String name = "d/" + "x".repeat(558); // 560 bytes
            String meta = r2.put(name, "hello world".getBytes(StandardCharsets.UTF_8), null, null, null, null).toCompletableFuture().join();
            assertThat(new JsonObject(meta).getString("etag")).isEqualTo("5eb63bbbe01eeed093cb22bb8f5acdc3");
            R2BucketHost.Got got = r2.get(name, null, 6, Double.NaN, Double.NaN).toCompletableFuture().join();
            byte[] b = new byte[got.body().remaining()];
            got.body().get(b);
            assertThat(text(b)).isEqualTo("world");
            JsonObject listed = new JsonObject(r2.list("d/", "/", null, null, Double.NaN, false, false).toCompletableFuture().join());
            assertThat(listed.getJsonArray("objects").getJsonObject(0).getString("key")).isEqualTo(name);
            assertThat(listed.getJsonArray("delimitedPrefixes").getList()).isEmpty();
            JsonObject flat = new JsonObject(r2.list(null, "/", null, null, Double.NaN, false, false).toCompletableFuture().join());
            assertThat(flat.getJsonArray("delimitedPrefixes").getList()).containsExactly("d/");

            String upload = r2.createUpload("big", null, null).toCompletableFuture().join();
            String etag = r2.uploadPart("big", upload, 1, "one part".getBytes(StandardCharsets.UTF_8)).toCompletableFuture().join();
            String done = r2.completeUpload("big", upload, new JsonArray().add(new JsonObject().put("partNumber", 1).put("etag", etag)).encode())
                    .toCompletableFuture().join();
            assertThat(new JsonObject(done).getLong("size")).isEqualTo(8);
            assertThat(new JsonObject(done).getString("etag")).endsWith("-1");
        }
    }
}
