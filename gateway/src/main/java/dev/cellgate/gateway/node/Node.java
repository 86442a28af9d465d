package dev.cellgate.gateway.node;

import dev.cellgate.core.config.NodeConfig;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.plugin.PluginHost;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.core.store.probe.ProbeResult;
import dev.cellgate.core.store.probe.StorageProbe;
import dev.cellgate.gateway.Distribution;
import dev.cellgate.gateway.http.InternalListener;
import dev.cellgate.gateway.http.Json;
import dev.cellgate.gateway.http.PublicListener;
import dev.cellgate.gateway.log.LineLayout;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node: its Vert.x instance, plugins, bucket and two listeners. {@link #run} starts it and
 * blocks until it stops, returning the process exit code.
 */
public final class Node {
    private static final Logger LOG = LoggerFactory.getLogger(Node.class);

    private final NodeConfig config;
    private final Distribution dist;
    private final long startedMs = System.currentTimeMillis();
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();

    private NodeIdentity identity;
    private Vertx vertx;
    private PluginHost plugins;
    private BucketStores stores;
    private BucketStore bucket;
    private HttpServer publicServer;
    private HttpServer internalServer;
    private String advertise;
    private volatile boolean draining;

    Node(NodeConfig config, Distribution dist) {
        this.config = config;
        this.dist = dist;
    }

    /** Starts a node and blocks until it has stopped; returns the exit code. */
    public static int run(NodeConfig config, Distribution dist) {
        Node node = new Node(config, dist);
        try {
            node.start();
        } catch (StartupException e) {
            LOG.atError().setMessage("node.start_failed").addKeyValue("error", e.getMessage()).log();
            System.err.println("cellgate: " + e.getMessage());
            node.closeQuietly();
            return e.exitCode();
        }
        Signals.onTermination(node::requestShutdown);
        int code = node.exit.join();
        LOG.atInfo().setMessage("node.stopped").addKeyValue("exit_code", code).log();
        return code;
    }

    void start() throws StartupException {
        Path watch = Path.of(config.watchDir()).toAbsolutePath().normalize();
        try {
            identity = NodeIdentity.resolve(config, watch);
        } catch (java.io.IOException e) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, "cannot establish the node id in " + watch + ": " + e.getMessage());
        }
        LineLayout.nodeId(identity.nodeId());

        vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(false));

        Path pluginsDir = config.pluginsDir().map(Path::of).orElse(dist.defaultPluginsDir()).toAbsolutePath().normalize();
        plugins = new PluginHost(pluginsDir);
        try {
            plugins.start();
        } catch (RuntimeException e) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, e.getMessage());
        }
        stores = new BucketStores(plugins);
        try {
            bucket = stores.open(config.bucket(), new StoreOptions(config.storeOptions()));
        } catch (IllegalArgumentException e) {
            throw new StartupException(ExitCodes.CONFIG, "invalid CELLD_BUCKET=" + config.bucket() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, "cannot open bucket " + config.bucket() + ": " + e.getMessage());
        }
        if (config.storageProbe()) {
            // Ownership rests on atomic conditional writes: refuse a bucket that does not prove them.
            ProbeResult probe = StorageProbe.run(bucket, identity.nodeId());
            if (!probe.ok()) {
                throw new StartupException(ExitCodes.STARTUP_FAILED, probe.summary());
            }
        }

        InternalListener internal = new InternalListener(vertx);
        new OperatorApi(this).mount(internal.router());
        internalServer = await(internal.listen(config.internalAddr().host(), config.internalAddr().port()),
                "internal listener on " + config.internalAddr());
        advertise = config.advertise().orElse(config.internalAddr().host() + ":" + internalServer.actualPort());

        PublicListener pub = new PublicListener(vertx, this::unhealthyReason,
                req -> Json.send(req.response(), 503, Json.error("no Worker is deployed on this node yet")));
        publicServer = await(pub.listen(config.addr().host(), config.addr().port()), "public listener on " + config.addr());

        LOG.atInfo().setMessage("node.listening")
                .addKeyValue("public", config.addr().host() + ":" + publicServer.actualPort())
                .addKeyValue("internal", config.internalAddr().host() + ":" + internalServer.actualPort())
                .addKeyValue("advertise", advertise)
                .addKeyValue("bucket", bucket.url())
                .addKeyValue("plugins_dir", pluginsDir.toString())
                .log();
    }

    /** Health: null when healthy. */
    private JsonObject unhealthyReason() {
        return draining ? new JsonObject().put("draining", true) : null;
    }

    /** Begins stopping (a signal or {@code POST /shutdown}); idempotent. */
    void requestShutdown(String signal) {
        synchronized (this) {
            if (draining) {
                return;
            }
            draining = true;
        }
        LOG.atInfo().setMessage("shutdown.requested").addKeyValue("signal", signal).addKeyValue("mode", "handoff")
                .addKeyValue("occupied", 0).log();
        LOG.atInfo().setMessage("shutdown.drained").addKeyValue("released", 0).addKeyValue("failed", 0)
                .addKeyValue("ms", 0).log();
        closeQuietly();
        exit.complete(ExitCodes.OK);
    }

    JsonObject state() {
        return new JsonObject()
                .put("node", identity.nodeId())
                .put("session", identity.session())
                .put("started_ms", startedMs)
                .put("draining", draining)
                .put("public", config.addr().host() + ":" + publicServer.actualPort())
                .put("internal", config.internalAddr().host() + ":" + internalServer.actualPort())
                .put("advertise", advertise)
                .put("bucket", bucket.url());
    }

    JsonObject pluginsState() {
        return new JsonObject()
                .put("dir", plugins.dir().toString())
                .put("plugins", new JsonArray(plugins.describe().stream().map(m -> new JsonObject(new java.util.HashMap<>(m))).toList()))
                .put("schemes", new JsonArray(stores.schemes().stream().toList()));
    }

    BucketStores stores() {
        return stores;
    }

    StoreOptions storeOptions() {
        return new StoreOptions(config.storeOptions());
    }

    String nodeId() {
        return identity.nodeId();
    }

    Vertx vertx() {
        return vertx;
    }

    private void closeQuietly() {
        try {
            if (vertx != null) {
                vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            LOG.atWarn().setMessage("node.close_failed").addKeyValue("error", e.toString()).log();
        }
        if (bucket != null) {
            bucket.close();
        }
        if (plugins != null) {
            plugins.close();
        }
    }

    private static <T> T await(io.vertx.core.Future<T> f, String what) throws StartupException {
        try {
            return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new StartupException(ExitCodes.STARTUP_FAILED, "cannot start the " + what + ": " + cause.getMessage());
        }
    }
}
