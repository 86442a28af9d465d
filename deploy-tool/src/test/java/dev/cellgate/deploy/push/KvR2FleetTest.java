package dev.cellgate.deploy.push;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.RealNode;
import dev.cellgate.deploy.ToolRun;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Wrangler project with a KV namespace and an R2 bucket, pushed as written and served by a fleet
 * of two real nodes ({@code java -jar}) on one bucket: a KV put through node A is read through node
 * B, an R2 object put on B is read on A, and deploy-tool's {@code kv}/{@code r2} commands see (and
 * write) the same data, by namespace id and by binding name.
 */
class KvR2FleetTest {
    @TempDir
    Path tmp;

    private static String get(String addr, String path) throws Exception {
        HttpResponse<String> res = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://" + addr + path))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        return res.statusCode() + " " + res.body();
    }

    /** Checked at push by the same providers nodes run: an R2 jurisdiction has no meaning on one fleet bucket. */
    @Test
    void aJurisdictionOrABadBucketNameIsRefusedAtPush() throws Exception {
        Path dir = tmp.resolve("out");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("index.js"), "export default { fetch() { return new Response('x'); } };\n");
        String bucket = "file://" + tmp.resolve("bucket").toAbsolutePath();
        Files.writeString(dir.resolve("wrangler.json"), "{ \"r2_buckets\": [ { \"binding\": \"F\", \"bucket_name\": \"bucket-one\", \"jurisdiction\": \"eu\" } ] }");
        ToolRun eu = ToolRun.run("push", dir.resolve("index.js").toString(), "--bucket", bucket);
        assertThat(eu.code()).as(eu.toString()).isEqualTo(dev.cellgate.deploy.cli.ExitCodes.REFUSED);
        assertThat(eu.err()).contains("binding F (r2_bucket): jurisdiction is not supported");
        Files.writeString(dir.resolve("wrangler.json"), "{ \"kv_namespaces\": [ { \"binding\": \"K\", \"id\": \"not/an/id\" } ] }");
        ToolRun kv = ToolRun.run("push", dir.resolve("index.js").toString(), "--bucket", bucket);
        assertThat(kv.err()).as(kv.toString()).contains("binding K (kv_namespace): namespace_id not/an/id is not 1 to 64 of");
        assertThat(Files.exists(tmp.resolve("bucket/deploy"))).as("a refused push writes nothing").isFalse();
    }

    @Test
    void twoNodesAndTheCliShareKvAndR2() throws Exception {
        Esbuilds.assumeAvailable();
        Path p = tmp.resolve("p");
        Files.createDirectories(p.resolve("src"));
        Files.writeString(p.resolve("wrangler.jsonc"), """
                { "name": "kv-r2-fleet", "main": "src/index.js", "compatibility_date": "2025-04-01",
                  // as `wrangler kv namespace create` and `wrangler r2 bucket create` print them
                  "kv_namespaces": [ { "binding": "CACHE", "id": "0f2ac74b498b48028cb68387c421e279" } ],
                  "r2_buckets": [ { "binding": "FILES", "bucket_name": "fleet-files" } ] }
                """);
        Files.writeString(p.resolve("src/index.js"), """
                export default { async fetch(req, env) {
                  const u = new URL(req.url); const k = u.searchParams.get('k'); const v = u.searchParams.get('v');
                  if (u.pathname === '/kv-put') { await env.CACHE.put(k, v, { metadata: { via: 'worker' } }); return new Response('ok'); }
                  if (u.pathname === '/kv-get') return new Response(String(await env.CACHE.get(k)));
                  if (u.pathname === '/r2-put') return new Response((await env.FILES.put(k, v)).etag);
                  if (u.pathname === '/r2-get') { const o = await env.FILES.get(k); return new Response(o === null ? 'null' : await o.text()); }
                  return new Response('?', { status: 404 });
                } };
                """);
        String bucket = "file://" + tmp.resolve("bucket").toAbsolutePath();
        ToolRun push = ToolRun.run(Esbuilds.env(), "push", p.toString(), "--bucket", bucket, "--json");
        assertThat(push.code()).as(push.toString()).isZero();
        try (RealNode a = RealNode.start(tmp, bucket, "kv-a"); RealNode b = RealNode.start(tmp, bucket, "kv-b")) {
            String onA = a.listening.getString("public");
            String onB = b.listening.getString("public");
            a.awaitEvent("deployment.loaded");
            b.awaitEvent("deployment.loaded");
            assertThat(get(onA, "/kv-put?k=greeting&v=hello")).as(String.join("\n", a.lines)).isEqualTo("200 ok");
            assertThat(get(onB, "/kv-get?k=greeting")).isEqualTo("200 hello");
            assertThat(get(onB, "/r2-put?k=doc.txt&v=hello%20world")).isEqualTo("200 5eb63bbbe01eeed093cb22bb8f5acdc3");
            assertThat(get(onA, "/r2-get?k=doc.txt")).isEqualTo("200 hello world");

            ToolRun kvGet = ToolRun.run("kv", "key", "get", "greeting", "--binding", "CACHE", "--bucket", bucket);
            assertThat(kvGet.out()).as(kvGet.toString()).isEqualTo("hello");
            assertThat(ToolRun.run("kv", "key", "put", "fromcli", "written by the CLI", "--namespace-id", "0f2ac74b498b48028cb68387c421e279",
                    "--bucket", bucket).code()).isZero();
            assertThat(get(onA, "/kv-get?k=fromcli")).isEqualTo("200 written by the CLI");
            assertThat(ToolRun.run("r2", "object", "get", "fleet-files/doc.txt", "--bucket", bucket).out()).isEqualTo("hello world");
        }
    }
}
