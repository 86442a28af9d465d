package dev.cellgate.gateway.node;

import dev.cellgate.core.logic.DrainCondition;
import dev.cellgate.core.cell.CellRouter;
import dev.cellgate.core.cell.Cells;
import dev.cellgate.core.cell.CellsConfig;
import dev.cellgate.core.config.NodeConfig;
import dev.cellgate.core.fleet.FleetKey;
import dev.cellgate.core.fleet.FleetView;
import dev.cellgate.core.fleet.DeadNodeGc;
import dev.cellgate.core.fleet.LeaseKeeper;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.fleet.Waker;
import dev.cellgate.core.logic.LeaseRenewal;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.logic.NodeAuthority;
import dev.cellgate.core.fleet.Rejoin;
import dev.cellgate.core.logic.Scopes;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.PeerAuthRecord;
import dev.cellgate.gateway.peer.PeerAuth;
import dev.cellgate.gateway.peer.PeerClient;
import dev.cellgate.gateway.peer.PeerRoutes;
import dev.cellgate.gateway.peer.PeerSocketClient;
import dev.cellgate.gateway.peer.PeerSocketRoute;
import dev.cellgate.gateway.ws.SocketRegistry;
import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.fleet.Self;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.spi.replication.Replicator;
import dev.cellgate.core.time.Monotonic;
import dev.cellgate.core.time.Ticker;
import dev.cellgate.core.deploy.DeploymentPlugins;
import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.deploy.DeploymentWatcher;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.plugin.PluginHost;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.core.spi.js.EngineInfo;
import dev.cellgate.core.spi.js.JsEngine;
import dev.cellgate.core.time.Scheduler;
import dev.cellgate.core.worker.JsThreads;
import dev.cellgate.core.logic.WorkerCpuLimit;
import dev.cellgate.core.worker.WorkerPool;
import dev.cellgate.gateway.Distribution;
import dev.cellgate.gateway.Main;
import dev.cellgate.gateway.dashboard.DashboardData;
import dev.cellgate.gateway.dashboard.DashboardRoutes;
import dev.cellgate.gateway.metrics.CellsStatus;
import dev.cellgate.gateway.metrics.NodeMetrics;
import dev.cellgate.gateway.metrics.RequestMetrics;
import dev.cellgate.gateway.peer.PeerWire;
import dev.cellgate.gateway.trace.NodeTracing;
import dev.cellgate.gateway.http.InternalListener;
import dev.cellgate.gateway.http.Json;
import dev.cellgate.gateway.http.PublicListener;
import dev.cellgate.gateway.http.PublicServerVerticle;
import dev.cellgate.gateway.http.RetryableCellCalls;
import dev.cellgate.gateway.http.WorkerRequests;
import dev.cellgate.gateway.launch.JitLauncher;
import dev.cellgate.gateway.log.LineLayout;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node: Vert.x, plugins, the bucket, the JavaScript engine, the Worker pool, the deployment
 * watcher and two listeners. {@link #run} starts it and blocks until it stops, returning the
 * process exit code.
 */
public final class Node {
    private static final Logger LOG = LoggerFactory.getLogger(Node.class);
    /** Asset file bytes a node keeps in memory (immutable by digest; least recently served dropped first). */
    static final long ASSET_CACHE_BYTES = 64L * 1024 * 1024;
    /** Peer protocol version, published in the lease and checked on every peer request. */
    public static final int PROTOCOL = PeerAuth.VERSION;

    private final NodeConfig config;
    private final Distribution dist;
    private final long startedMs = System.currentTimeMillis();
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    /** How long an install waits for the lanes' new instances before it switches without them. */
    private static final long WARM_TIMEOUT_MS = 30_000;
    /** Completes once cells and the Worker pool exist (after the storage probe): a deployment installs only then. */
    private final CompletableFuture<Void> cellsUp = new CompletableFuture<>();
    /** How every lease of another process is judged, and how much of its own lease this node uses (SPEC §20). */
    private final Liveness liveness;

    private NodeIdentity identity;
    private NodeMetrics metrics;
    private Vertx vertx;
    private PluginHost plugins;
    private BucketStores stores;
    private BucketStore bucket;
    private JsEngine engine;
    private WorkerPool workers;
    private JsThreads jsThreads;
    private Cells cells;
    private CellRouter router;
    private volatile LeaseKeeper lease;
    /** The resident-cell limit in force (CELLD_MAX_RESIDENT_CELLS, else what the open-file limit allows); -1: none. */
    private volatile int residentCeiling = -1;
    /** Serving, fenced-degraded, rejoining (issue 29): its decisions; the object is also their lock. */
    private NodeAuthority authority;
    private Rejoin rejoin;
    private final Scheduler leaseScheduler = Scheduler.system("lease");
    private volatile PeerAuth peerAuth;
    private dev.cellgate.core.fleet.NodeEgress egress;
    private volatile dev.cellgate.core.fleet.OperatorSignature operatorSignature;
    private WakeIndex wakeIndex;
    private OwnershipStore ownership;
    private volatile Waker waker;
    /** Cron triggers (SPEC §17): claimed fleet-wide, run here when this node's claim lands. */
    private volatile dev.cellgate.core.fleet.CronTicker crons;
    private DeadNodeGc gc;
    private FleetView fleet;
    private ExecutorService cellIo;
    private DeploymentWatcher deployments;
    private ExecutorService compileExecutor;
    private HttpServer internalServer;
    /** Peer requests being answered: a stopping node lingers until its peers go quiet. */
    private dev.cellgate.gateway.http.PeerTraffic peerTraffic;
    private int publicPort;
    private String advertise;
    private volatile boolean draining;
    private volatile CompletableFuture<Void> firstDeployment;
    private volatile ShutdownDrain drain;
    /** Traces (CELLD_OTEL_ENDPOINT); off until the node id is known, and when unset. */
    private NodeTracing tracing = NodeTracing.off();
    private WorkerRequests publicRequests;
    /** Worker requests whose Durable Object call failed retryably: answered 503 + Retry-After when the Worker fails them. */
    private final RetryableCellCalls retryableCellCalls = new RetryableCellCalls();
    private SocketRegistry sockets;
    /** Where this start went (issue 22): logged once as {@code node.startup}, the moment the node first is ready. */
    private final StartupTimeline timeline = newTimeline();
    /** The public listener is bound (health can answer 200 once a deployment is installed). */
    private volatile boolean listening;
    private final java.util.concurrent.atomic.AtomicBoolean startupLogged = new java.util.concurrent.atomic.AtomicBoolean();
    /** When the first deployment's load steps ended (epoch ms), for the timeline. */
    private volatile long deploymentFoundMs;
    private volatile long deploymentFetchedMs;
    private volatile long deploymentCompiledMs;

    Node(NodeConfig config, Distribution dist) {
        this.config = config;
        this.dist = dist;
        this.liveness = Liveness.withSkew(config.clockSkewMs());
    }

    /** Starts a node and blocks until it has stopped; returns the exit code. */
    public static int run(NodeConfig config, Distribution dist) {
        Node node = new Node(config, dist);
        // Signals first: a stop requested while the node starts is honoured as soon as it is up.
        Signals.onTermination(sig -> node.started.thenRun(() -> node.requestShutdown(sig)));
        // Relaunched for the JIT: if the launcher is killed (-9), stop gracefully rather than linger.
        JitLauncher.watchParentIfChild(() -> node.started.thenRun(() -> node.requestShutdown("launcher-exit")));
        try {
            node.start();
        } catch (StartupException e) {
            LOG.atError().setMessage("node.start_failed").addKeyValue("error", e.getMessage()).log();
            System.err.println("cellgate: " + e.getMessage());
            node.cellsUp.completeExceptionally(e); // a deployment compiled meanwhile is never installed
            node.closeQuietly();
            return e.exitCode();
        }
        node.started.complete(null);
        int code = node.exit.join();
        LOG.atInfo().setMessage("node.stopped").addKeyValue("exit_code", code).log();
        return code;
    }

    void start() throws StartupException {
        long mark = now();
        if (Main.enteredMs() > 0) {
            timeline.span("config", Main.enteredMs(), mark); // configuration, the distribution's layout, the log setup
        }
        Path watch = Path.of(config.watchDir()).toAbsolutePath().normalize();
        try {
            identity = NodeIdentity.resolve(config, watch);
        } catch (java.io.IOException e) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, "cannot establish the node id in " + watch + ": " + e.getMessage());
        }
        LineLayout.nodeId(identity.nodeId());
        metrics = new NodeMetrics(identity.nodeId());
        tracing = NodeTracing.of(config.otelEndpoint(), identity.nodeId(), dev.cellgate.gateway.Version.text());

        int loops = Runtime.getRuntime().availableProcessors();
        // JavaScript runs on its own threads (JsThreads), never on the event loops: the blocked-loop
        // warning keeps Vert.x's default, so a task that blocks a loop again shows in the log. A turn
        // may run as long as the largest CPU budget a deployment can set (limits.cpu_ms, up to 300000,
        // or CELLD_CPU_MS if larger): the JS pool does not call it blocked before that.
        vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(false).setEventLoopPoolSize(loops));
        jsThreads = new JsThreads(vertx, config.jsThreads(), WorkerCpuLimit.longestEventMs(config.cpuMs()));
        mark = timeline.span("vertx", mark, now());

        Path pluginsDir = config.pluginsDir().map(Path::of).orElse(dist.defaultPluginsDir()).toAbsolutePath().normalize();
        plugins = new PluginHost(pluginsDir);
        try {
            plugins.start();
        } catch (RuntimeException e) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, e.getMessage());
        }
        mark = timeline.span("plugins", mark, now());
        stores = new BucketStores(plugins);
        try {
            bucket = tracing.bucket(metrics.instrument(stores.open(config.bucket(), new StoreOptions(config.storeOptions()))));
        } catch (IllegalArgumentException e) {
            throw new StartupException(ExitCodes.CONFIG, "invalid CELLD_BUCKET=" + config.bucket() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, "cannot open bucket " + config.bucket() + ": " + e.getMessage());
        }
        mark = timeline.span("bucket", mark, now());
        // Ownership rests on atomic conditional writes: a bucket that does not prove them is refused.
        // The probe runs while the engine starts and the first deployment compiles (neither writes
        // to the bucket nor serves anything); everything that rests on the proof waits for it below.
        BackgroundProbe probe = config.storageProbe() ? BackgroundProbe.start(bucket, identity.nodeId(), Node::now) : null;

        // Worker egress: the settings' policy, this node's listeners (added as they bind) and the peers' leases.
        egress = dev.cellgate.core.fleet.NodeEgress.of(config.egressPolicy(), () -> fleet == null ? java.util.List.of() : fleet.knownLeases(),
                identity.nodeId());
        LOG.atInfo().setMessage("egress.policy").addKeyValue("policy", egress.policy().toString()).log();
        engine = Engines.create(plugins, vertx, config, identity.nodeId(), pluginsDir, egress, bucket);
        EngineInfo info = engine.info();
        LOG.atInfo().setMessage("engine.started").addKeyValue("name", info.name()).addKeyValue("mode", info.mode())
                .addKeyValue("detail", info.detail()).log();
        if (!info.optimizing()) {
            LOG.atWarn().setMessage("engine.interpreted").addKeyValue("detail", info.detail())
                    .addKeyValue("impact", "JavaScript runs several times slower without the Graal JIT")
                    .addKeyValue("fix", "start with java -jar gateway.jar (CELLD_JIT=1) on Temurin 25.0.3+ with lib/jvmci present").log();
        }
        mark = timeline.span("engine", mark, now());

        compileExecutor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "deployment-loader");
            t.setDaemon(true);
            return t;
        });
        deployments = new DeploymentWatcher(new DeploymentStore(bucket), engine, config.varOverrides(),
                Scheduler.system("deployment-watch"), compileExecutor, config.deployPollMs(), this::installDeployment,
                new DeploymentPlugins(new DeploymentStore(bucket), plugins, watch.resolve("deployment-plugins"), compileExecutor))
                .loadSteps(this::deploymentStep);
        timeline.moment("deployment_watch", now());
        // Not awaited: compiling a deployment can take long on a busy machine; health says "loading" meanwhile.
        firstDeployment = deployments.start();
        if (probe != null) {
            probe.awaitOk(timeline);
            mark = timeline.span("probe_wait", mark, now());
        }

        sockets = new SocketRegistry(vertx);
        startCells();
        workers = new WorkerPool(retryableCellCalls.watching(router), jsThreads, loops, Math.max(loops, jsThreads.size() / 2));
        cellsUp.complete(null);
        mark = timeline.span("cells", mark, now());
        // The lease gauge shows what this node may still serve for: its monotonic validity, as an instant.
        metrics.gauges(new CellsStatus(cells, () -> draining, this::degraded,
                () -> lease == null ? 0 : System.currentTimeMillis() + lease.validForMs(), deployments::runningId, sockets::count), info);

        InternalListener internal = new InternalListener(vertx);
        internal.timed(PeerWire.PREFIX + "fetch/", RequestMetrics.Kind.PEER, metrics.requests());
        internal.timed(PeerWire.PREFIX + "call/", RequestMetrics.Kind.PEER, metrics.requests());
        internal.timed(PeerWire.PREFIX + "export/", RequestMetrics.Kind.PEER, metrics.requests());
        // Before every route: a mutating call without a fleet-key signature or the operator token never reaches one.
        internal.router().route().handler(new OperatorAuth(() -> operatorSignature, identity.nodeId(), config.operatorToken()));
        new OperatorApi(this).mount(internal.router());
        new CellRoutes(cells, ownership).mount(internal.router());
        if (cells.replicator() != null) {
            new PointInTimeRoutes(cells, cells.replicator(), Path.of(config.watchDir()).toAbsolutePath().normalize().resolve("pitr-dry-runs"),
                    cellIo).mount(internal.router());
        }
        new DashboardRoutes(new DashboardData(identity.nodeId(), fleet, bucket, cells, this::state)).mount(internal.router());
        peerTraffic = internal.peerTraffic(PeerWire.PREFIX, () -> draining);
        new PeerRoutes(() -> peerAuth, identity.nodeId(), cells, () -> draining, this::loadJson, config.maxRequestBodyBytes(), Ticker.SYSTEM)
                .exports(engine.exportedObjects()).tracing(tracing).mount(internal.router());
        router.exports(identity.nodeId(), engine.exportedObjects());
        new PeerSocketRoute(() -> peerAuth, identity.nodeId(), cells, () -> draining, sockets, Ticker.SYSTEM).mount(internal.router());
        internalServer = await(internal.listen(config.internalAddr().host(), config.internalAddr().port()),
                "internal listener on " + config.internalAddr());
        mark = timeline.span("internal_listener", mark, now());
        advertise = config.advertise().orElse(config.internalAddr().host() + ":" + internalServer.actualPort());
        egress.listeners(ownListeners(false));
        startLease();
        startWaker(new Self(identity.nodeId(), identity.session()));
        mark = timeline.span("lease", mark, now());
        // The waker's first pass ran before the deployment loaded and could wake no cell: scan again the
        // moment it has, so alarms that came due while the node was down fire now, not a tick later (SPEC §18).
        firstDeployment.whenComplete((x, e) -> {
            Waker w = waker;
            if (e == null && w != null) {
                w.scanSoon();
            }
        });

        startPublicServers(loops);
        egress.listeners(ownListeners(true));
        crons = NodeCrons.start(bucket, identity.nodeId(), deployments, workers,
                () -> !draining && !degraded() && leaseValid());
        mark = timeline.span("public_listener", mark, now());
        timeline.moment("listening", mark);

        LOG.atInfo().setMessage("node.listening")
                .addKeyValue("public", config.addr().host() + ":" + publicPort)
                .addKeyValue("internal", config.internalAddr().host() + ":" + internalServer.actualPort())
                .addKeyValue("advertise", advertise)
                .addKeyValue("bucket", bucket.url())
                .addKeyValue("deployment", deployments.runningId())
                .addKeyValue("plugins_dir", pluginsDir.toString())
                .log();
        tracing.started(startedMs);
        listening = true;
        logStartupIfReady();
    }

    /** The timeline from the first JVM of this start: the launcher's, when this one was relaunched for the JIT. */
    private static StartupTimeline newTimeline() {
        long jvm = java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
        java.util.OptionalLong launcher = JitLauncher.launcherStartedMs();
        java.util.OptionalLong spawned = JitLauncher.spawnedMs();
        StartupTimeline t = new StartupTimeline(launcher.orElse(jvm));
        if (launcher.isPresent() && spawned.isPresent()) {
            t.span("launcher", launcher.getAsLong(), spawned.getAsLong()); // the launcher JVM's start, main, config check
            t.span("relaunch", spawned.getAsLong(), jvm); // spawning this JVM until it started
        }
        if (Main.enteredMs() > 0) {
            t.span("jvm_to_main", jvm, Main.enteredMs());
        }
        return t;
    }

    private static long now() {
        return System.currentTimeMillis();
    }

    /** The first deployment's load steps, for the timeline; then readiness (issue 22). */
    private void deploymentStep(String id, DeploymentWatcher.Step step) {
        long at = now();
        switch (step) {
            case FOUND -> deploymentFoundMs = at;
            case FETCHED -> deploymentFetchedMs = at;
            case COMPILED -> deploymentCompiledMs = at;
            case INSTALLED -> {
                if (!timeline.has("deployment_loaded") && deploymentCompiledMs > 0) {
                    timeline.moment("deployment_found", deploymentFoundMs);
                    timeline.span("deployment_fetch", deploymentFoundMs, deploymentFetchedMs);
                    timeline.span("deployment_compile", deploymentFetchedMs, deploymentCompiledMs);
                    timeline.span("deployment_install", deploymentCompiledMs, at);
                    timeline.moment("deployment_loaded", at);
                }
                logStartupIfReady();
            }
        }
    }

    /**
     * Logs {@code node.startup} once, the first moment health would answer 200: the public listener
     * is bound and a deployment is installed (whichever comes last calls this successfully).
     */
    private void logStartupIfReady() {
        if (!listening || workers == null || workers.current() == null || startupLogged.getAndSet(true)) {
            return;
        }
        timeline.moment("ready", now());
        var line = LOG.atInfo().setMessage("node.startup");
        timeline.fields().forEach(line::addKeyValue);
        line.addKeyValue("relaunched", JitLauncher.launcherStartedMs().isPresent())
                .addKeyValue("deployment", deployments.runningId()).log();
    }

    /** Ownership, lease, the cell registry and the stub router. */
    /** New Worker requests go to the new code at once; resident cells follow between their events. */
    private void installDeployment(LoadedScript script) {
        // The first deployment may compile before the probe has passed and the Worker pool exists.
        cellsUp.join();
        // Every lane gets its instance of the new code before the code takes requests (and, the first
        // time, before health says ready): no request pays a context's set-up (issue 22).
        long warmFrom = now();
        try {
            workers.warm(script).get(WARM_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.atWarn().setMessage("worker.warm_failed").addKeyValue("error", String.valueOf(e.getCause() != null ? e.getCause() : e))
                    .addKeyValue("impact", "the first requests set their Worker instances up themselves").log();
        }
        timeline.span("deployment_warm", warmFrom, now());
        workers.install(script);
        if (cells != null) {
            cells.moveToCurrentCode();
        }
        dev.cellgate.core.fleet.CronTicker c = crons;
        if (c != null) {
            c.poke(); // the new deployment's triggers are timed now, not at the next wake-up
        }
    }

    private void startCells() throws StartupException {
        Self self = new Self(identity.nodeId(), identity.session());
        cellIo = Executors.newFixedThreadPool(Math.max(2, config.activations()), daemon("cell-io"));
        Replicator replicator = Replicators.create(plugins, bucket, cellIo, config.pitrRetentionMs());
        ownership = new OwnershipStore(bucket, self, Ticker.SYSTEM, liveness);
        OptionalInt maxResident = ResidentCeiling.of(config);
        residentCeiling = maxResident.orElse(-1);
        OptionalInt lowWater = maxResident.equals(config.maxResidentCells()) ? config.residentLowWater()
                : OptionalInt.of(Math.max(1, (int) (maxResident.getAsInt() * 0.8)));
        CellsConfig cc = new CellsConfig(Path.of(config.watchDir()).toAbsolutePath().normalize(), config.outputGate(),
                config.idleEvictMs(), maxResident, lowWater, config.maxRssMb(), config.activations(), config.activationDeadlineMs());
        wakeIndex = new WakeIndex(bucket);
        cells = new Cells(vertx, jsThreads, cc, ownership, replicator, () -> workers == null ? null : workers.current(), Ticker.SYSTEM,
                cellIo, this::leaseValid, wakeIndex);
        router = new CellRouter(cells, vertx, Monotonic.SYSTEM);
        cells.metrics(metrics.runtime());
        cells.events(tracing.cellEvents());
        router.metrics(metrics.runtime());
        cells.stubs(router);
        cells.startSweeper();
        try {
            PeerAuthRecord key = FleetKey.ensure(bucket, Ticker.SYSTEM).get(30, TimeUnit.SECONDS);
            peerAuth = new PeerAuth(key.keyHex());
            operatorSignature = new dev.cellgate.core.fleet.OperatorSignature(key.keyHex());
        } catch (Exception e) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, "cannot read or create the fleet key " + Keys.PEER_AUTH
                    + ": " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
        }
        fleet = new FleetView(bucket, Ticker.SYSTEM, Scheduler.system("fleet-view"), Math.max(500, config.ttlMs() / 3), liveness);
        // A peer seen dead: wake its cells' alarms now rather than at the waker's next tick (SPEC §18).
        fleet.onDeath(identity.nodeId(), dead -> {
            Waker w = waker;
            if (w != null) {
                w.nodeDied(dead.node(), dead.session());
            }
        });
        fleet.start();
        // A forwarded event may take its deployment's CPU budget (limits.cpu_ms, else CELLD_CPU_MS) before it answers.
        router.forwarder(new PeerClient(vertx, () -> peerAuth, identity.nodeId(), fleet, config.maxRequestBodyBytes(),
                () -> WorkerCpuLimit.peerAnswerTimeoutMs(config.cpuMs(), runningCpuLimitMs()),
                WorkerCpuLimit.longestAnswerMs(config.cpuMs()), Ticker.SYSTEM).tracing(tracing)
                .sockets(new PeerSocketClient(vertx, () -> peerAuth, identity.nodeId(), fleet, sockets, Ticker.SYSTEM)));
    }

    /** The running deployment's own limits.cpu_ms (null: none, or nothing running yet). */
    private Long runningCpuLimitMs() {
        WorkerPool w = workers;
        dev.cellgate.core.spi.js.LoadedScript script = w == null ? null : w.current();
        return script == null ? null : script.bundle().cpuLimitMs();
    }

    /**
     * The fleet's background worker: every CELLD_WAKER_TICK_MS this node competes for the waker
     * lease; the holder wakes cells with due alarms (wherever they can run) and runs dead-node GC.
     */
    private void startWaker(Self self) {
        if (gc == null) {
            gc = new DeadNodeGc(bucket, Ticker.SYSTEM, config.wakerTickMs(), liveness);
        }
        Waker w = new Waker(bucket, self, Ticker.SYSTEM, Scheduler.system("waker"), config.wakerTickMs(), wakeIndex,
                (scope, minuteMs) -> router.wake(new CellIdentity(Scopes.className(scope), Scopes.hexId(scope), null),
                        java.util.OptionalLong.of(minuteMs)), gc, liveness);
        waker = w;
        w.start();
    }

    /** Writes this node's lease before it serves anything; a lost lease degrades or exits the node. */
    private void startLease() throws StartupException {
        authority = new NodeAuthority(identity.session(), config.ttlMs(), config.fenceExit());
        rejoin = new Rejoin(bucket, identity.nodeId(), authority, Scheduler.system("rejoin"), Monotonic.SYSTEM,
                () -> NodeIdentity.randomHex(8), new Rejoin.Host() {
                    @Override
                    public LeaseKeeper keeperFor(Self self) {
                        return Node.this.keeperFor(self);
                    }

                    @Override
                    public void rejoined(LeaseKeeper keeper, NodeAuthority.Rejoined r) {
                        Node.this.rejoined(keeper, r);
                    }

                    @Override
                    public void exit(String why) {
                        exitFenced(why);
                    }
                });
        lease = keeperFor(new Self(identity.nodeId(), identity.session()));
        await(io.vertx.core.Future.fromCompletionStage(lease.start()), "node lease", 7L * config.ttlMs() + 30_000);
        synchronized (authority) {
            authority.started();
        }
    }

    /** The lease keeper of one session; its fence is judged against the session it belongs to. */
    private LeaseKeeper keeperFor(Self self) {
        return LeaseKeeper.reportingKinds(bucket, self, advertise, PROTOCOL, config.ttlMs(), liveness, Ticker.SYSTEM,
                Monotonic.SYSTEM, leaseScheduler, this::load, f -> leaseFenced(self.session(), f));
    }

    /**
     * Cells are served only under a lease that is held and valid: not before the first lease write
     * landed (the internal listener is up before it), not after a fence, a stop or a lapse.
     */
    boolean leaseValid() {
        LeaseKeeper l = lease;
        return l != null && l.canServe();
    }

    private LeaseRecord.Load load() {
        if (cells == null) {
            return LeaseRecord.Load.IDLE;
        }
        // The ceiling the node enforces (the open-file limit may set it), so diagnose and peers see what it logged.
        return new LeaseRecord.Load(cells.resident(), residentCeiling, cells.full(), cells.restoringCount());
    }

    JsonObject loadJson() {
        LeaseRecord.Load l = load();
        return new JsonObject().put("resident", l.resident()).put("max_resident", l.maxResident())
                .put("pressured", l.pressured()).put("restoring", l.restoring());
    }

    /** True while the node serves no cells after a lapse, until it rejoined (issue 29). */
    boolean degraded() {
        NodeAuthority a = authority;
        if (a == null) {
            return false;
        }
        synchronized (a) {
            return a.degraded();
        }
    }

    /**
     * The lease of {@code session} was lost. {@link NodeAuthority} decides: a lapse degrades the node
     * (cells stopped, stateless traffic kept, rejoin under a new session when the bucket answers); a
     * replacement, or any fence with CELLD_FENCE_EXIT=1, exits 3.
     */
    private void leaseFenced(String session, LeaseRenewal.Fence fence) {
        NodeAuthority.OnFence d;
        synchronized (authority) {
            d = authority.fenced(session, fence.kind(), fence.cause(), Monotonic.SYSTEM.elapsedMs());
        }
        switch (d) {
            case NodeAuthority.OnFence.Ignore i -> LOG.atInfo().setMessage("lease.fence_ignored").addKeyValue("session", session)
                    .addKeyValue("why", i.why()).log();
            case NodeAuthority.OnFence.Exit x -> exitFenced(x.why());
            case NodeAuthority.OnFence.Degrade g -> degrade(g.episode(), fence);
        }
    }

    /**
     * Fenced-degraded: every cell stops at once (no bucket call; their clients get 503 with
     * Retry-After, their WebSockets 1012), the waker and its dead-node GC stop, health stays 200 with
     * {@code degraded}, stateless Worker requests go on. {@link Rejoin} brings the node back under a
     * new session once every cell is gone and the bucket answers.
     */
    private void degrade(int episode, LeaseRenewal.Fence fence) {
        System.err.println("SELF-FENCE: " + fence.cause() + " (lease lapsed: every cell stopped; stateless requests are still "
                + "served, and the node rejoins with a new session once the bucket answers; CELLD_FENCE_EXIT=1 exits instead)");
        LOG.atError().setMessage("node.self_fenced").addKeyValue("cause", fence.cause())
                .addKeyValue("kind", fence.kind().name().toLowerCase(java.util.Locale.ROOT)).addKeyValue("action", "degrade").log();
        Waker w = waker;
        if (w != null) {
            w.stop(); // its pass (wake scan, dead-node GC) is cancelled; a held waker lease is given up if the bucket answers
        }
        long t0 = System.currentTimeMillis();
        cells.fence(fence.cause()).whenComplete((v, e) -> {
            synchronized (authority) {
                authority.cellsStopped(episode);
            }
            LOG.atInfo().setMessage("node.cells_stopped").addKeyValue("ms", System.currentTimeMillis() - t0).log();
            rejoin.drive();
        });
        rejoin.drive();
    }

    /** A new session's lease landed: cells are acquired under it again (on demand, at epoch+1), the waker restarts. */
    private void rejoined(LeaseKeeper keeper, NodeAuthority.Rejoined r) {
        if (draining) {
            keeper.stop(false);
            return;
        }
        ownership.switchSession(keeper.self());
        lease = keeper;
        if (!keeper.holding()) {
            // It fenced between its start and now: its fence was not yet the current session's, so say it again.
            leaseFenced(r.session(), new LeaseRenewal.Fence(LeaseRenewal.FenceKind.LAPSED,
                    "the new session's lease was lost before the node used it"));
            return;
        }
        startWaker(keeper.self());
        LOG.atWarn().setMessage("node.rejoined").addKeyValue("session", r.session()).addKeyValue("previous_session", r.previousSession())
                .addKeyValue("degraded_ms", r.degradedMs()).addKeyValue("rejoins", r.rejoins()).log();
    }

    /**
     * This node lost its authority for good (lease replaced by another writer, or CELLD_FENCE_EXIT=1):
     * stop serving at once, drop every cell without touching the bucket, exit 3.
     */
    void exitFenced(String cause) {
        System.err.println("SELF-FENCE: " + cause);
        LOG.atError().setMessage("node.self_fenced").addKeyValue("cause", cause).addKeyValue("action", "exit").log();
        if (rejoin != null) {
            rejoin.stop();
        }
        draining = true;
        if (crons != null) {
            crons.stop();
        }
        if (cells != null) {
            cells.stopAcceptingWork();
        }
        // Tell WebSocket clients to reconnect (to the cells' next owners) rather than see a reset.
        CompletableFuture<Void> closed = sockets == null ? CompletableFuture.completedFuture(null)
                : sockets.closeAll("node fenced; reconnect", 500);
        closed.whenComplete((v, e) -> exit.complete(ExitCodes.SELF_FENCED));
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * One server per event loop, all in one deployment on one port: Vert.x binds the socket once
     * and spreads connections over the instances. Vert.x gives each instance its own port when asked
     * for port 0, so an ephemeral port is picked first.
     */
    private void startPublicServers(int loops) throws StartupException {
        WorkerRequests handler = new WorkerRequests(workers, config.maxRequestBodyBytes(), () -> draining, sockets,
                metrics.requests(), config.requestCf(), retryableCellCalls,
                new dev.cellgate.core.assets.DeployedAssets(bucket, new dev.cellgate.core.assets.BlobCache(ASSET_CACHE_BYTES)))
                .noWorker(this::whyNoWorker).tracing(tracing);
        publicRequests = handler;
        String host = config.addr().host();
        int port = config.addr().port();
        if (port == 0) {
            try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(host))) {
                port = probe.getLocalPort();
            } catch (java.io.IOException e) {
                throw new StartupException(ExitCodes.STARTUP_FAILED, "cannot pick a free port on " + host + ": " + e.getMessage());
            }
        }
        int bound = port;
        await(vertx.deployVerticle(() -> new PublicServerVerticle(
                () -> new PublicListener(vertx, this::unhealthyReason, this::healthNotes, handler)
                        // a fetch may compute silently for the largest budget a deployment can set
                        .idleTimeoutSeconds((int) (WorkerCpuLimit.longestAnswerMs(config.cpuMs()) / 1000)), host, bound),
                new DeploymentOptions().setInstances(loops)), "public listener on " + host + ":" + bound);
        publicPort = bound;
    }

    /** This node's listeners, for the egress policy: a Worker must not call its own node (nor, through it, the operator API). */
    private java.util.List<dev.cellgate.core.fleet.NodeEgress.Listener> ownListeners(boolean withPublic) {
        java.util.List<dev.cellgate.core.fleet.NodeEgress.Listener> l = new java.util.ArrayList<>();
        l.add(new dev.cellgate.core.fleet.NodeEgress.Listener(config.internalAddr().host(), internalServer.actualPort(), "internal listener"));
        int colon = advertise.lastIndexOf(':');
        l.add(new dev.cellgate.core.fleet.NodeEgress.Listener(advertise.substring(0, colon), Integer.parseInt(advertise.substring(colon + 1)),
                "advertised internal address " + advertise));
        if (withPublic) {
            l.add(new dev.cellgate.core.fleet.NodeEgress.Listener(config.addr().host(), publicPort, "public listener"));
        }
        return l;
    }

    /**
     * Health: null when healthy. Ready means a Worker request sent now is served (issue 22): not while
     * draining, and not while no deployment is installed, whether the first one is still loading, its
     * load failed (a later poll tries again), or the bucket holds none (docs/operations.md).
     */
    private JsonObject unhealthyReason() {
        if (draining) {
            return new JsonObject().put("draining", true);
        }
        WorkerPool w = workers;
        if (w == null || w.current() == null) {
            if (firstDeployment == null || !firstDeployment.isDone()) {
                return new JsonObject().put("loading", "deployment");
            }
            String failure = deployments.failure();
            return failure != null ? new JsonObject().put("deployment", "failed").put("error", failure)
                    : new JsonObject().put("deployment", "none").put("detail", "the bucket holds no deployment: push one with deploy-tool push");
        }
        return null;
    }

    /** The 503 body of a Worker request while no deployment is installed: the same state health reports. */
    private String whyNoWorker() {
        JsonObject r = unhealthyReason();
        if (r != null && r.containsKey("loading")) {
            return "loading: this node is still loading its deployment; retry in a moment (health answers 503 loading meanwhile)";
        }
        if (r != null && "failed".equals(r.getString("deployment"))) {
            return "no Worker is running here: " + r.getString("error");
        }
        return new WorkerPool.NoDeploymentException().getMessage();
    }

    /**
     * What a 200 health answer adds: {@code degraded} while the node serves no cells after a lapse.
     * Health stays 200 then, on purpose: the node still serves every stateless Worker request, and a
     * balancer that pulled degraded nodes would, in a bucket stall that hits the whole fleet, pull all
     * of them and turn a cell outage into a total one. Cell calls answer 503 with Retry-After instead.
     */
    private JsonObject healthNotes() {
        NodeAuthority a = authority;
        if (a == null) {
            return null;
        }
        synchronized (a) {
            if (!a.degraded()) {
                return null;
            }
            return new JsonObject().put("degraded", new JsonObject().put("cells", false)
                    .put("since_ms", a.degradedForMs(Monotonic.SYSTEM.elapsedMs())).put("cause", a.cause())
                    .put("rejoining", a.state() == NodeAuthority.State.REJOINING));
        }
    }

    /** Begins stopping (a signal or {@code POST /shutdown}); idempotent. */
    void requestShutdown(String signal) {
        requestShutdown(signal, DrainCondition.Mode.HANDOFF);
    }

    /**
     * The graceful stop. Health turns 503 and new public requests get 503 + Connection: close at
     * once. A draining node accepts no new work at all: a new request would re-acquire a cell just
     * released and undo the handoff (peers then serve it with no takeover gap).
     */
    void requestShutdown(String signal, DrainCondition.Mode mode) {
        synchronized (this) {
            if (draining) {
                return;
            }
            draining = true;
        }
        if (authority != null) {
            synchronized (authority) {
                authority.stopping();
            }
            rejoin.stop();
        }
        long t0 = Monotonic.SYSTEM.elapsedMs(); // the drain's deadline counts from here, on its clock
        LOG.atInfo().setMessage("shutdown.requested").addKeyValue("signal", signal)
                .addKeyValue("mode", mode.name().toLowerCase(java.util.Locale.ROOT))
                .addKeyValue("occupied", cells == null ? 0 : cells.occupied()).log();
        if (cells == null) {
            exit.complete(ExitCodes.OK);
            return;
        }
        cells.stopAcceptingWork();
        Waker w = waker;
        if (w != null) {
            w.stop();
        }
        if (crons != null) {
            crons.stop();
        }
        // A released cell whose alarm is due soon, or any released cell with warm handoff: the waker's
        // wake-up, which a draining node forwards to a peer (the router's placement picks which).
        ShutdownDrain.HandoffPoke poke = (scope, name) -> router.wake(new CellIdentity(Scopes.className(scope), Scopes.hexId(scope), name),
                java.util.OptionalLong.empty()).thenApply(r -> (Void) null);
        // a cron run in progress counts as a request: the drain waits for it (its DO calls need the cells)
        drain = new ShutdownDrain(vertx, cells, config.releases(), config.shutdownDrainMs(),
                () -> publicRequests.inFlight() + (crons == null ? 0 : crons.running()),
                peerTraffic, poke, config.wakerTickMs(), mode == DrainCondition.Mode.HANDOFF ? config.handoffWarmMs() : 0);
        drain.run(mode, t0).whenComplete((r, e) -> {
            LOG.atInfo().setMessage("shutdown.drained").addKeyValue("released", r == null ? 0 : r.released())
                    .addKeyValue("failed", r == null ? -1 : r.failed()).addKeyValue("ms", Monotonic.SYSTEM.elapsedMs() - t0)
                    .addKeyValue("peak_concurrent_releases", r == null ? 0 : r.peakConcurrentReleases())
                    .addKeyValue("alarms_handed", drain.poked())
                    .addKeyValue("warmed", drain.warmed()).addKeyValue("warm_failed", drain.warmFailed())
                    .addKeyValue("complete", r != null && r.complete())
                    .addKeyValue("linger_ms", r == null ? 0 : r.lingerMs()).log();
            // Cells closed their own sockets as they left; what remains (tunnels to other nodes' cells,
            // Worker-held sockets) closes with 1012 too, so clients reconnect to a running node.
            CompletableFuture<Void> socketsClosed = sockets.closeAll("node stopping; reconnect", 1000);
            // Then no new peer connection is accepted (a peer's connect is refused: "not sent", safe to
            // retry elsewhere) while a request already read is still answered.
            CompletableFuture<Void> internalClosed = socketsClosed.handle((x, se) -> null)
                    .thenCompose(x -> internalServer.shutdown(500, TimeUnit.MILLISECONDS).toCompletionStage().toCompletableFuture()
                            .handle((y, ie) -> (Void) null));
            CompletableFuture<Void> leaseDone = internalClosed.thenCompose(x -> lease == null ? CompletableFuture.completedFuture(null)
                    : mode == DrainCondition.Mode.HANDOFF ? lease.stop(true) : lease.lapse());
            // No request is served any more: flush the spans buffered for the collector while the lease goes,
            // in the same 2 s after the drain (the stop-window arithmetic, docs/operations.md).
            long afterDrainEnds = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            CompletableFuture<Void> spansSent = internalClosed.thenCompose(x -> tracing.shutdown(
                    java.time.Duration.ofNanos(Math.max(0, afterDrainEnds - System.nanoTime()))));
            CompletableFuture.allOf(leaseDone.orTimeout(2, TimeUnit.SECONDS).handle((x, le) -> null), spansSent)
                    .whenComplete((x, le) -> exit.complete(ExitCodes.OK));
        });
    }

    JsonObject state() {
        EngineInfo info = engine.info();
        return new JsonObject()
                .put("node", identity.nodeId())
                .put("session", authority == null ? identity.session() : currentSession())
                .put("started_ms", startedMs)
                .put("draining", draining)
                .put("degraded", degradedState())
                .put("public", config.addr().host() + ":" + publicPort)
                .put("internal", config.internalAddr().host() + ":" + internalServer.actualPort())
                .put("advertise", advertise)
                .put("bucket", bucket.url())
                .put("deployment", deployments.runningId())
                .put("worker", deployments.runningWorker())
                .put("occupied", cells.occupied())
                .put("resident", cells.resident())
                .put("activating", cells.activating())
                .put("restoring", cells.restoringCount())
                .put("evicting", cells.evictingCount())
                .put("releasing", cells.releasingCount())
                .put("public_in_flight", publicRequests == null ? 0 : publicRequests.inFlight())
                .put("shedding", cells.sheddingCount())
                .put("release_peak", drain == null ? 0 : drain.peak())
                .put("activation_peak", cells.activationPeak())
                .put("hibernated", cells.hibernatedCount())
                .put("hibernatable_sockets", cells.hibernatableSockets())
                .put("websockets", sockets.count())
                .put("lease_expires_ms", lease == null ? null : lease.publishedExpiryMs())
                .put("lease_valid_ms", lease == null ? 0 : lease.validForMs())
                .put("clock_skew_margin_ms", liveness.skewMs())
                .put("clock_offset_ms", lease == null ? null : lease.clockOffsetMs())
                .put("engine", new JsonObject().put("name", info.name()).put("mode", info.mode()).put("detail", info.detail()))
                .put("rpc_exports", rpcExports());
    }

    /** The engine's objects passed by reference over JS RPC and the stubs for them (null: no JS RPC by reference). */
    private JsonObject rpcExports() {
        dev.cellgate.core.spi.js.ExportedObjects x = engine.exportedObjects();
        return x == null ? null : new JsonObject().put("objects", x.liveExports()).put("stubs", x.liveRefs());
    }

    private String currentSession() {
        synchronized (authority) {
            return authority.session();
        }
    }

    /** {@code degraded} in /state: null while serving, else since when, why, and whether the rejoin is under way. */
    private JsonObject degradedState() {
        JsonObject notes = healthNotes();
        JsonObject d = notes == null ? null : notes.getJsonObject("degraded");
        if (d != null) {
            synchronized (authority) {
                d.put("cells_stopped", authority.cellsStopped()).put("dead_sessions", new JsonArray(List.copyOf(authority.deadSessions())));
            }
        }
        return d;
    }

    /** {@code GET /metrics}: the Prometheus text format (blocking: call off the event loop). */
    String metricsText() {
        return metrics.scrape();
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
        if (deployments != null) {
            deployments.stop();
        }
        LeaseKeeper l = lease;
        if (l != null) {
            // A start that failed after the lease was written: peers must not count this node alive until it expires.
            try {
                l.stop(true).get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.atWarn().setMessage("lease.delete_failed").addKeyValue("error", e.toString())
                        .addKeyValue("impact", "peers see this node until its lease expires").log();
            }
        }
        try {
            if (vertx != null) {
                vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            LOG.atWarn().setMessage("node.close_failed").addKeyValue("error", e.toString()).log();
        }
        if (engine != null) {
            engine.close();
        }
        if (bucket != null) {
            bucket.close();
        }
        if (plugins != null) {
            plugins.close();
        }
        if (metrics != null) {
            metrics.close();
        }
    }

    private static <T> T await(io.vertx.core.Future<T> f, String what) throws StartupException {
        return await(f, what, 60_000);
    }

    private static <T> T await(io.vertx.core.Future<T> f, String what, long timeoutMs) throws StartupException {
        try {
            return f.toCompletionStage().toCompletableFuture().get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new StartupException(ExitCodes.STARTUP_FAILED, "the " + what + " did not start within " + timeoutMs + " ms");
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new StartupException(ExitCodes.STARTUP_FAILED, "cannot start the " + what + ": " + cause.getMessage());
        }
    }
}
