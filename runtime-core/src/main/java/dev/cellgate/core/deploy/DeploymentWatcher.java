package dev.cellgate.core.deploy;

import dev.cellgate.core.spi.js.JsEngine;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.time.Scheduler;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches {@code deploy/current.json} and switches the node to a new deployment without a
 * restart. A deployment that fails to load here leaves the node on the one it runs (logged,
 * healthy), and is not retried until {@code current} moves again.
 */
public final class DeploymentWatcher {
    private static final Logger LOG = LoggerFactory.getLogger(DeploymentWatcher.class);

    private final DeploymentStore deployments;
    private final JsEngine engine;
    private final Map<String, String> varOverrides;
    private final Scheduler scheduler;
    private final Executor compileExecutor;
    private final long pollMs;
    private final Consumer<LoadedScript> onLoaded;
    private final DeploymentPlugins plugins;

    /** Compiled deployments kept for instant rollbacks. */
    static final int KEEP_COMPILED = 3;
    private final java.util.LinkedHashMap<String, LoadedScript> recent = new java.util.LinkedHashMap<>();
    /** The triggers of each deployment in {@link #recent} (a rollback switches to them without reading the manifest). */
    private final Map<String, ActiveTriggers> recentTriggers = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile ActiveTriggers activeTriggers;
    private volatile String runningId;
    private volatile String runningWorker;
    private volatile String lastSeenId;
    private volatile boolean stopped;
    private volatile LoadSteps steps = (id, step) -> { };
    /** Why the deployment {@code current} names is not running (null: it runs, or none is named). */
    private volatile String failure;

    /** The steps of loading one deployment, in order. */
    public enum Step {
        /** {@code current.json} names a deployment this node does not run. */
        FOUND,
        /** Its manifest, modules, plugin jars and secrets are read. */
        FETCHED,
        /** The engine has compiled it. */
        COMPILED,
        /** New requests run it. */
        INSTALLED
    }

    /** Told as each step of a load ends (the startup timeline); called on the loading threads, must not block. */
    public interface LoadSteps {
        void ended(String deployment, Step step);
    }

    public DeploymentWatcher(DeploymentStore deployments, JsEngine engine, Map<String, String> varOverrides, Scheduler scheduler,
                             Executor compileExecutor, long pollMs, Consumer<LoadedScript> onLoaded, DeploymentPlugins plugins) {
        this.plugins = plugins;
        this.deployments = deployments;
        this.engine = engine;
        this.varOverrides = varOverrides;
        this.scheduler = scheduler;
        this.compileExecutor = compileExecutor;
        this.pollMs = pollMs;
        this.onLoaded = onLoaded;
    }

    private void installed(String id, LoadedScript script, ActiveTriggers triggers) {
        String previous = runningId;
        runningId = id;
        runningWorker = script.bundle().scriptName();
        activeTriggers = triggers;
        recentTriggers.put(id, triggers);
        remember(id, script);
        onLoaded.accept(script);
        failure = null;
        steps.ended(id, Step.INSTALLED);
        LOG.atInfo().setMessage("deployment.loaded").addKeyValue("deployment", id).addKeyValue("previous", previous).log();
    }

    /** Keeps the last few compiled deployments; older ones are closed (cells moved off them long ago). */
    private void remember(String id, LoadedScript script) {
        synchronized (recent) {
            recent.remove(id);
            recent.put(id, script);
            while (recent.size() > KEEP_COMPILED) {
                String oldest = recent.keySet().iterator().next();
                LoadedScript old = recent.remove(oldest);
                recentTriggers.remove(oldest);
                try {
                    old.close();
                } catch (RuntimeException e) {
                    LOG.atWarn().setMessage("deployment.close_failed").addKeyValue("deployment", oldest).addKeyValue("error", e.toString()).log();
                }
            }
        }
    }

    /** Loads the current deployment (if any), then keeps polling. Completes after the first check. */
    public CompletableFuture<Void> start() {
        return check().whenComplete((x, e) -> schedule());
    }

    public void stop() {
        stopped = true;
    }

    /** Reports each load's steps to {@code l}; set before {@link #start}. */
    public DeploymentWatcher loadSteps(LoadSteps l) {
        this.steps = l;
        return this;
    }

    /**
     * Why the deployment {@code current.json} names does not run here, or null when it runs (or
     * the bucket names none): the last load's error, kept until a load succeeds.
     */
    public String failure() {
        return failure;
    }

    /** The cron triggers of the deployment this node runs, or null before one is loaded. */
    public ActiveTriggers activeTriggers() {
        return activeTriggers;
    }

    /** The deployment id this node runs, or null. */
    public String runningId() {
        return runningId;
    }

    /** The running deployment's Worker name (Wrangler {@code name}), null before the first load. */
    public String runningWorker() {
        return runningWorker;
    }

    private void schedule() {
        if (!stopped) {
            scheduler.after(pollMs, () -> check().whenComplete((x, e) -> schedule()));
        }
    }

    private CompletableFuture<Void> check() {
        return deployments.current().thenCompose(cur -> {
            if (cur.isEmpty()) {
                failure = null;
                return CompletableFuture.completedFuture(null);
            }
            String id = cur.get().value().deployment();
            long sinceMs = cur.get().value().ms();
            if (id.equals(lastSeenId)) {
                return CompletableFuture.completedFuture(null);
            }
            lastSeenId = id;
            steps.ended(id, Step.FOUND);
            LoadedScript cached;
            synchronized (recent) {
                cached = recent.get(id);
            }
            if (cached != null) {
                // A rollback (or a flip back and forth): the code is still compiled, switch at once.
                ActiveTriggers t = recentTriggers.get(id);
                installed(id, cached, t == null ? null : new ActiveTriggers(id, t.worker(), t.crons(), sinceMs));
                return CompletableFuture.completedFuture(null);
            }
            java.util.concurrent.atomic.AtomicReference<ActiveTriggers> triggersOf = new java.util.concurrent.atomic.AtomicReference<>();
            return deployments.load(id)
                    .thenApply(d -> {
                        triggersOf.set(new ActiveTriggers(id, d.manifest().name(), d.manifest().triggers().crons(), sinceMs));
                        return d;
                    })
                    .thenCompose(d -> plugins.install(d.manifest()).thenApply(x -> d))
                    // the secret values this deployment names (their versions are in its manifest, so every node reads the same)
                    .thenCompose(d -> deployments.secretValues(d.manifest()).thenApply(secrets -> Map.entry(d, secrets)))
                    .thenApply(loaded -> {
                        steps.ended(id, Step.FETCHED);
                        return loaded;
                    })
                    .thenApplyAsync(loaded -> {
                        try {
                            LoadedScript script = engine.load(loaded.getKey().toBundle(varOverrides, loaded.getValue()));
                            steps.ended(id, Step.COMPILED);
                            return script;
                        } catch (Exception e) {
                            throw new java.util.concurrent.CompletionException(e);
                        }
                    }, compileExecutor)
                    .thenAccept(script -> installed(id, script, triggersOf.get()));
        }).exceptionally(e -> {
            Throwable c = e;
            while (c instanceof java.util.concurrent.CompletionException && c.getCause() != null) {
                c = c.getCause();
            }
            failure = (lastSeenId == null || lastSeenId.equals(runningId) ? "the current deployment" : "deployment " + lastSeenId)
                    + " did not load: " + c.getMessage();
            if (!(c instanceof dev.cellgate.core.spi.js.ScriptLoadException) && !(c instanceof MalformedManifestException)) {
                lastSeenId = runningId; // a bucket error, not bad code or a bad manifest: try again next poll
            }
            LOG.atError().setMessage("deployment.load_failed").addKeyValue("deployment", lastSeenId)
                    .addKeyValue("running", runningId).addKeyValue("error", String.valueOf(c.getMessage())).log();
            return null;
        });
    }
}
