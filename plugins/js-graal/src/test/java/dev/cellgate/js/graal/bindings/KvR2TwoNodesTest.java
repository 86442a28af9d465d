package dev.cellgate.js.graal.bindings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.bindings.FleetBindings;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.store.file.FileBucketStore;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two nodes (two engines, each with its own store over one bucket directory): a KV put or an R2
 * put that resolved on node A is read on node B at once where B holds no copy of the key (a KV copy
 * answers for up to its cacheTtl, Cloudflare's eventual consistency), a delete on B is seen on A, and
 * an R2 multipart upload started on A is completed on B: the fleet bucket is the one copy of R2.
 */
class KvR2TwoNodesTest {
    @TempDir
    Path dir;

    private static final String WORKER = """
            export default { async fetch(req, env) {
              const u = new URL(req.url); const k = u.searchParams.get('k'); const v = u.searchParams.get('v');
              switch (u.pathname) {
                case '/kv-put': await env.KV.put(k, v, { metadata: { by: v } }); return new Response('ok');
                case '/kv-get': return new Response(JSON.stringify(await env.KV.getWithMetadata(k)));
                case '/kv-del': await env.KV.delete(k); return new Response('ok');
                case '/kv-list': return new Response((await env.KV.list()).keys.map((x) => x.name).join(','));
                case '/r2-put': return new Response((await env.R2.put(k, v)).etag);
                case '/r2-get': { const o = await env.R2.get(k); return new Response(o === null ? 'null' : o.etag + ':' + await o.text()); }
                case '/mpu-start': { const up = await env.R2.createMultipartUpload(k); const p1 = await up.uploadPart(1, new Uint8Array(5 * 1024 * 1024).fill(98));
                  return new Response(JSON.stringify({ id: up.uploadId, p1 })); }
                case '/mpu-finish': { const s = JSON.parse(v); const up = env.R2.resumeMultipartUpload(k, s.id); const p2 = await up.uploadPart(2, 'end');
                  const o = await up.complete([s.p1, p2]); return new Response(o.size + ' ' + o.etag.endsWith('-2')); }
                default: return new Response('?', { status: 404 });
              }
            } };
            """;

    private static ScriptBundle bundle() {
        return new ScriptBundle("d-two", "two", "index.js", Map.of("index.js", WORKER), Map.of(), Map.of(), "2025-01-01", List.of())
                .withBindings(List.of(new EnvBinding("KV", "kv_namespace", new JsonObject().put("namespace_id", "shared")),
                        new EnvBinding("R2", "r2_bucket", new JsonObject().put("bucket_name", "shared"))));
    }

    @Test
    void aWriteOnOneNodeIsReadOnTheOther() throws Exception {
        try (FileBucketStore bucketA = new FileBucketStore(dir.toUri().toString(), dir, false);
             FileBucketStore bucketB = new FileBucketStore(dir.toUri().toString(), dir, false);
             TestEngine a = new TestEngine(FleetBindings.registry(bucketA));
             TestEngine b = new TestEngine(FleetBindings.registry(bucketB));
             TestWorker onA = a.worker(bundle());
             TestWorker onB = b.worker(bundle())) {
            assertThat(onA.text("http://x/kv-put?k=greeting&v=from-a")).isEqualTo("ok");
            assertThat(onB.text("http://x/kv-get?k=greeting")).isEqualTo("{\"value\":\"from-a\",\"metadata\":{\"by\":\"from-a\"},\"cacheStatus\":null}");
            assertThat(onB.text("http://x/kv-put?k=reply&v=from-b")).isEqualTo("ok");
            assertThat(onA.text("http://x/kv-get?k=reply")).contains("\"value\":\"from-b\"");
            // A holds a copy of greeting (its own put) younger than the 60 s default cacheTtl: it answers, as a
            // Cloudflare location's does, until it ages out (KvNodeCacheTest); B reads its own overwrite at once
            assertThat(onB.text("http://x/kv-put?k=greeting&v=from-b")).isEqualTo("ok");
            assertThat(onA.text("http://x/kv-get?k=greeting")).contains("\"value\":\"from-a\"");
            assertThat(onB.text("http://x/kv-get?k=greeting")).contains("\"value\":\"from-b\"");
            assertThat(onA.text("http://x/kv-put?k=other&v=1")).isEqualTo("ok");
            assertThat(onB.text("http://x/kv-list")).isEqualTo("greeting,other,reply");
            assertThat(onB.text("http://x/kv-put?k=brief&v=1")).isEqualTo("ok");
            assertThat(onB.text("http://x/kv-del?k=brief")).isEqualTo("ok");
            assertThat(onA.text("http://x/kv-get?k=brief")).isEqualTo("{\"value\":null,\"metadata\":null,\"cacheStatus\":null}");

            String etag = onA.text("http://x/r2-put?k=doc&v=hello%20world");
            assertThat(etag).isEqualTo("5eb63bbbe01eeed093cb22bb8f5acdc3");
            assertThat(onB.text("http://x/r2-get?k=doc")).isEqualTo(etag + ":hello world");

            // a multipart upload started on A, finished on B, read on A
            String started = onA.text("http://x/mpu-start?k=big");
            assertThat(onB.text("http://x/mpu-finish?k=big&v=" + java.net.URLEncoder.encode(started, java.nio.charset.StandardCharsets.UTF_8)))
                    .isEqualTo((5 * 1024 * 1024 + 3) + " true");
            assertThat(onA.text("http://x/r2-get?k=big")).endsWith("bbbend");
        }
    }
}
