package dev.cellgate.deploy.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.ToolRun;
import dev.cellgate.deploy.cli.ExitCodes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy-tool kv} and {@code deploy-tool r2 object} against a real directory bucket: what one
 * command writes the next reads, bad input is refused with Cloudflare's message and writes nothing,
 * and the objects land under the prefixes the bindings read ({@code kv/<id>/}, {@code r2/<bucket>/}).
 */
class KvR2CommandsTest {
    @TempDir
    Path tmp;

    private ToolRun tool(String... argv) {
        String[] all = Stream.concat(Stream.of(argv), Stream.of("--bucket", tmp.resolve("bucket").toUri().toString())).toArray(String[]::new);
        return ToolRun.run(all);
    }

    @Test
    void kvKeyPutGetListDelete() throws Exception {
        assertThat(tool("kv", "key", "put", "greeting", "hello", "--namespace-id", "ns1", "--metadata", "{\"a\":1}").code()).isZero();
        ToolRun get = tool("kv", "key", "get", "greeting", "--namespace-id", "ns1");
        assertThat(get.code()).as(get.toString()).isZero();
        assertThat(get.out()).isEqualTo("hello");
        ToolRun json = tool("kv", "key", "get", "greeting", "--namespace-id", "ns1", "--json");
        assertThat(json.json().getValue("metadata")).isEqualTo(new JsonObject().put("a", 1));
        ToolRun list = tool("kv", "key", "list", "--namespace-id", "ns1", "--json");
        assertThat(list.json().getJsonArray("keys")).isEqualTo(new JsonArray().add(new JsonObject().put("name", "greeting")
                .put("metadata", new JsonObject().put("a", 1))));
        assertThat(Files.isDirectory(tmp.resolve("bucket/kv/ns1"))).isTrue();
        assertThat(tool("kv", "key", "delete", "greeting", "--namespace-id", "ns1").code()).isZero();
        assertThat(tool("kv", "key", "get", "greeting", "--namespace-id", "ns1").code()).isEqualTo(ExitCodes.FAILED);
    }

    @Test
    void kvRefusesWhatCloudflareRefusesWithItsMessage() {
        ToolRun r = tool("kv", "key", "put", "k", "v", "--namespace-id", "ns1", "--ttl", "10");
        assertThat(r.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err()).contains("KV PUT failed: 400 Invalid expiration_ttl of 10. Expiration TTL must be at least 60.");
        ToolRun k = tool("kv", "key", "put", "x".repeat(513), "v", "--namespace-id", "ns1");
        assertThat(k.err()).contains("UTF-8 encoded length of 513 exceeds key length limit of 512.");
        assertThat(tool("kv", "key", "list", "--namespace-id", "ns1", "--json").json().getJsonArray("keys")).isEmpty();
        assertThat(tool("kv", "key", "get", "k").code()).isEqualTo(ExitCodes.USAGE); // no namespace named
    }

    @Test
    void kvBulkPutWritesEveryEntryOrNone() throws Exception {
        Path good = tmp.resolve("good.json");
        Files.writeString(good, "[{\"key\":\"a\",\"value\":\"1\"},{\"key\":\"b\",\"value\":\"AAEC\",\"base64\":true},"
                + "{\"key\":\"c\",\"value\":\"3\",\"expiration_ttl\":3600,\"metadata\":{\"m\":true}}]");
        ToolRun r = tool("kv", "bulk", "put", good.toString(), "--namespace-id", "bulk");
        assertThat(r.code()).as(r.toString()).isZero();
        JsonArray keys = tool("kv", "key", "list", "--namespace-id", "bulk", "--json").json().getJsonArray("keys");
        assertThat(keys.stream().map(k -> ((JsonObject) k).getString("name")).toList()).containsExactly("a", "b", "c");
        assertThat(keys.getJsonObject(2).getLong("expiration")).isGreaterThan(System.currentTimeMillis() / 1000 + 3500);
        assertThat(tool("kv", "key", "get", "b", "--namespace-id", "bulk").out().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1))
                .containsExactly(0, 1, 2);
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "[{\"key\":\"d\",\"value\":\"1\"},{\"key\":\"e\"}]");
        ToolRun refused = tool("kv", "bulk", "put", bad.toString(), "--namespace-id", "bulk");
        assertThat(refused.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(refused.err()).contains("entry 1 needs a string \"key\" and a string \"value\"");
        assertThat(tool("kv", "key", "get", "d", "--namespace-id", "bulk").code()).isEqualTo(ExitCodes.FAILED); // nothing written
        Path del = tmp.resolve("del.json");
        Files.writeString(del, "[\"a\",\"b\"]");
        assertThat(tool("kv", "bulk", "delete", del.toString(), "--namespace-id", "bulk").code()).isZero();
        assertThat(tool("kv", "key", "list", "--namespace-id", "bulk", "--json").json().getJsonArray("keys").size()).isEqualTo(1);
    }

    @Test
    void r2ObjectPutGetListDelete() throws Exception {
        Path file = tmp.resolve("f.txt");
        Files.writeString(file, "hello world");
        ToolRun put = tool("r2", "object", "put", "my-bucket/dir/f.txt", "--file", file.toString(), "--content-type", "text/plain", "--json");
        assertThat(put.code()).as(put.toString()).isZero();
        assertThat(put.json().getString("etag")).isEqualTo("5eb63bbbe01eeed093cb22bb8f5acdc3");
        assertThat(tool("r2", "object", "get", "my-bucket/dir/f.txt").out()).isEqualTo("hello world");
        Path out = tmp.resolve("out.txt");
        assertThat(tool("r2", "object", "get", "my-bucket/dir/f.txt", "--file", out.toString()).code()).isZero();
        assertThat(Files.readString(out)).isEqualTo("hello world");
        JsonArray objects = tool("r2", "object", "list", "my-bucket", "--json").json().getJsonArray("objects");
        assertThat(objects.getJsonObject(0).getString("key")).isEqualTo("dir/f.txt");
        assertThat(Files.isDirectory(tmp.resolve("bucket/r2/my-bucket"))).isTrue();
        assertThat(tool("r2", "object", "delete", "my-bucket/dir/f.txt").code()).isZero();
        assertThat(tool("r2", "object", "get", "my-bucket/dir/f.txt").code()).isEqualTo(ExitCodes.FAILED);
        ToolRun badName = tool("r2", "object", "get", "Bad_Bucket/x");
        assertThat(badName.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(badName.err()).contains("bucket_name Bad_Bucket is not an R2 bucket name");
    }
}
