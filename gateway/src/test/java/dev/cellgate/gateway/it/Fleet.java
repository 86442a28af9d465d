package dev.cellgate.gateway.it;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.store.file.FileBucketStore;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.plugin.PluginHost;
import dev.cellgate.core.spi.bucket.StoreOptions;

/** Several real nodes on one bucket, and the Worker they run. */
public final class Fleet implements AutoCloseable {
    /** The Counter object's state and RPC methods: its class body without a fetch handler. */
    public static final String COUNTER_STATE = """
              constructor(ctx, env) {
                super(ctx, env);
                ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS c (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
              }
              increment() {
                return this.ctx.storage.sql.exec(
                  "INSERT INTO c (id, v) VALUES (1, 1) ON CONFLICT(id) DO UPDATE SET v = v + 1 RETURNING v").one().v;
              }
              read() {
                const r = this.ctx.storage.sql.exec("SELECT v FROM c WHERE id = 1").toArray();
                return r.length ? r[0].v : 0;
              }
            """;

    public static final String COUNTER_WORKER = """
            import { DurableObject } from "cloudflare:workers";
            export class Counter extends DurableObject {
            """ + COUNTER_STATE + """
              async fetch(request) {
                const op = new URL(request.url).searchParams.get("op");
                return new Response(String(op === "get" ? this.read() : this.increment()));
              }
            }
            export default {
              async fetch(request, env) {
                const m = /^\\/(c|rpc)\\/([^/]+)$/.exec(new URL(request.url).pathname);
                if (!m) return new Response("no", { status: 404 });
                const stub = env.COUNTER.getByName(m[2]);
                if (m[1] === "rpc") return new Response(String(await stub.increment()));
                return stub.fetch(request);
              }
            };
            """;

    public final Path root;
    public final String bucketUrl;
    public final List<NodeProcess> nodes = new ArrayList<>();
    private final Map<String, String> common;

    public Fleet(Path root, String bucketUrl, Map<String, String> common) throws Exception {
        this.root = root;
        this.bucketUrl = bucketUrl;
        this.common = common;
        Files.createDirectories(root);
    }

    /** A fleet on a directory bucket under {@code root}. */
    public static Fleet onFileBucket(Path root, Map<String, String> common) throws Exception {
        Path b = root.resolve("bucket");
        Files.createDirectories(b);
        return new Fleet(root, "file://" + b, common);
    }

    /** A fleet on any bucket URL a node can open (s3:// uses S3_ENDPOINT, AWS_REGION and AWS credentials from the environment). */
    public static Fleet onBucket(Path root, String bucketUrl, Map<String, String> common) throws Exception {
        return new Fleet(root, bucketUrl, common);
    }

    /** The fleet's bucket, opened in the test JVM through the same store plugins the nodes use. */
    public BucketStore openBucket() {
        if (bucketUrl.startsWith("file://")) {
            Path b = Path.of(bucketUrl.substring("file://".length()));
            return new FileBucketStore(bucketUrl, b, false);
        }
        Map<String, String> opts = new HashMap<>();
        for (String k : List.of("S3_ENDPOINT", "AWS_REGION")) {
            if (System.getenv(k) != null) {
                opts.put(k, System.getenv(k));
            }
        }
        return openBucket(bucketUrl, opts);
    }

    /** A bucket opened through the nodes' store plugins with these options (e.g. S3_ENDPOINT of a fault proxy). */
    public static BucketStore openBucket(String bucketUrl, Map<String, String> options) {
        return openBucket(bucketUrl, NodeProcess.GATEWAY_JAR.getParent().resolve("plugins"), options);
    }

    /** The same through the store plugins in {@code pluginsDir} (a node's CELLD_PLUGINS_DIR with an optional store added). */
    public static BucketStore openBucket(String bucketUrl, Path pluginsDir, Map<String, String> options) {
        PluginHost host = new PluginHost(pluginsDir);
        host.start();
        BucketStore inner = new BucketStores(host).open(bucketUrl, new StoreOptions(options));
        return new ClosingStore(inner, host);
    }

    /**
     * What the fleet logged about a response: its status and body, then every node's lines naming
     * its request id and the warnings and errors of the 10 s before. A failed status assertion shows
     * the node-side cause this way (a CI failure is often all there is to go on).
     */
    public String whatHappened(HttpResponse<String> r) {
        String id = r.headers().firstValue("x-request-id").orElse("(none)");
        StringBuilder out = new StringBuilder("HTTP " + r.statusCode() + " " + r.body() + "\n");
        String since = java.time.Instant.now().minusSeconds(10).truncatedTo(java.time.temporal.ChronoUnit.MILLIS).toString();
        for (NodeProcess n : nodes) {
            for (String l : n.lines()) {
                boolean recentTrouble = (l.contains("\"level\":\"WARN\"") || l.contains("\"level\":\"ERROR\""))
                        && l.startsWith("{\"ts\":\"") && l.substring(7, Math.min(l.length(), 31)).compareTo(since) >= 0;
                if (l.contains(id) || recentTrouble) {
                    out.append("  ").append(n.name()).append(": ").append(l.length() > 1500 ? l.substring(0, 1500) + "…" : l).append('\n');
                }
            }
        }
        return out.toString();
    }

    /**
     * Whether a node's lease lapsed at or after {@code since}: the bucket answered its renewals too
     * slowly (the loopback emulator on a loaded box), so it fenced its cells and a write in flight then
     * has an unknown outcome (500) and a call meanwhile finds the cell unavailable (503). Tests that
     * are not about lapses accept such an answer only when this says one happened.
     */
    public boolean leaseLapsedSince(java.time.Instant since) {
        for (NodeProcess n : nodes) {
            for (io.vertx.core.json.JsonObject f : n.events("lease.fenced")) {
                if ("lapsed".equals(f.getString("kind")) && !java.time.Instant.parse(f.getString("ts")).isBefore(since)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * GET through {@code n}, sending it again while the answer is 503 (a node degraded by a lapse
     * answers cell routes 503 with Retry-After until it rejoins), at most {@code within}.
     */
    public static HttpResponse<String> getServed(NodeProcess n, String path, java.time.Duration within) throws Exception {
        long end = System.nanoTime() + within.toNanos();
        while (true) {
            HttpResponse<String> r = n.get(n.publicUrl(path));
            if (r.statusCode() != 503 || System.nanoTime() > end) {
                return r;
            }
            Thread.sleep(500);
        }
    }

    public String deployCounter() {
        try (BucketStore b = openBucket()) {
            return TestDeployments.publish(b, "fleet", Map.of("index.js", COUNTER_WORKER), "index.js",
                    Map.of("COUNTER", "Counter"), Map.of());
        }
    }

    public NodeProcess start(String name) throws Exception {
        return start(name, Map.of());
    }

    public NodeProcess start(String name, Map<String, String> extra) throws Exception {
        return start(name, extra, List.of("-Xmx1g"));
    }

    public NodeProcess start(String name, Map<String, String> extra, List<String> jvmArgs) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("CELLD_BUCKET", bucketUrl);
        env.putAll(common);
        env.putAll(extra);
        NodeProcess n = NodeProcess.start(name, root.resolve(name), env, jvmArgs);
        nodes.add(n);
        return n;
    }

    /** Spawns a node with the fleet's settings (and {@code extra}) and returns at once, before it listens. */
    public NodeProcess launch(String name, Map<String, String> extra) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("CELLD_BUCKET", bucketUrl);
        env.putAll(common);
        env.putAll(extra);
        NodeProcess n = NodeProcess.launch(name, root.resolve(name), env, List.of("-Xmx1g"));
        nodes.add(n);
        return n;
    }

    /**
     * Starts a node on a bucket that holds no deployment yet and returns once it listens: it is not
     * healthy (nothing would be served) until a deployment lands.
     */
    public NodeProcess startBeforeDeploying(String name) throws Exception {
        NodeProcess n = launch(name, Map.of());
        n.awaitLine(l -> l.contains("\"event\":\"node.listening\""), java.time.Duration.ofSeconds(300));
        return n;
    }

    @Override
    public void close() {
        nodes.forEach(NodeProcess::close);
        if (bucketUrl.startsWith("s3://")) {
            // Nothing reads this prefix again; what stays costs the emulator (BucketCleanup says how much).
            long t0 = System.currentTimeMillis();
            try (BucketStore b = openBucket()) {
                int n = BucketCleanup.deleteAll(b);
                System.out.printf("fleet %s: deleted its %d objects from the S3 server in %d ms%n", bucketUrl, n,
                        System.currentTimeMillis() - t0);
            } catch (Exception e) {
                System.out.printf("fleet %s: could not delete its objects from the S3 server: %s%n", bucketUrl, e);
            }
        }
    }
}
