package dev.cellgate.core.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.spi.js.CellHost;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.CellInstance;
import dev.cellgate.core.spi.js.EngineInfo;
import dev.cellgate.core.spi.js.InstanceHost;
import dev.cellgate.core.spi.js.JsEngine;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.core.spi.js.WorkerInstance;
import dev.cellgate.core.store.file.FileBucketStore;
import dev.cellgate.core.time.Scheduler;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the watcher tells a node while it loads (issue 22): the steps of a load, in order, and why
 * the deployment {@code current.json} names is not running, which health reports.
 */
class DeploymentWatcherTest {
    @TempDir
    Path tmp;

    private FileBucketStore bucket;
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final List<Runnable> polls = new CopyOnWriteArrayList<>();
    /** Polls run by hand: {@link #poll()}. */
    private final Scheduler manual = (delayMs, task) -> {
        polls.add(task);
        return () -> { };
    };

    @BeforeEach
    void open() {
        bucket = new FileBucketStore("file://" + tmp.resolve("b"), tmp.resolve("b"), false);
    }

    @Test
    void aBucketWithNoDeploymentLoadsNothingAndReportsNoFailure() {
        DeploymentWatcher w = watcher(bucket, engine(0));
        w.start().join();
        assertThat(w.runningId()).isNull();
        assertThat(w.failure()).isNull();
        assertThat(seen).isEmpty();
    }

    @Test
    void aLoadEndsItsStepsInOrderAndIsInstalledBeforeInstalledIsTold() {
        String id = push();
        DeploymentWatcher w = watcher(bucket, engine(0));
        w.start().join();
        assertThat(w.runningId()).isEqualTo(id);
        assertThat(w.failure()).isNull();
        assertThat(seen).containsExactly(id + " FOUND", id + " FETCHED", id + " COMPILED", "onLoaded " + id, id + " INSTALLED");
    }

    @Test
    void codeThatDoesNotCompileIsTheFailureUntilALoadSucceeds() {
        String bad = push();
        DeploymentWatcher w = watcher(bucket, engine(1));
        w.start().join();
        assertThat(w.runningId()).isNull();
        assertThat(w.failure()).contains("deployment " + bad).contains("does not compile");
        assertThat(seen).containsExactly(bad + " FOUND", bad + " FETCHED");

        String good = push();
        poll();
        assertThat(w.runningId()).isEqualTo(good);
        assertThat(w.failure()).isNull();
    }

    @Test
    void aBucketErrorIsTheFailureAndTheNextPollLoadsTheDeployment() {
        String id = push();
        AtomicInteger manifestErrors = new AtomicInteger(1);
        BucketStore flaky = new FailingReads(bucket, key -> key.endsWith("/manifest.json") && manifestErrors.getAndDecrement() > 0);
        DeploymentWatcher w = watcher(flaky, engine(0));
        w.start().join();
        assertThat(w.runningId()).as("nothing runs after the failed first read").isNull();
        assertThat(w.failure()).contains("manifest read failed");

        poll();
        assertThat(w.runningId()).as("the next poll tried again").isEqualTo(id);
        assertThat(w.failure()).isNull();
    }

    /** Runs the poll the watcher scheduled, and waits until it has ended (it schedules the next). */
    private void poll() {
        Runnable next = polls.removeLast();
        next.run();
        long end = System.nanoTime() + 10_000_000_000L;
        while (polls.isEmpty()) {
            assertThat(System.nanoTime()).as("the poll ended within 10 s").isLessThan(end);
            Thread.onSpinWait();
        }
    }

    private DeploymentWatcher watcher(BucketStore store, JsEngine engine) {
        DeploymentStore d = new DeploymentStore(store);
        return new DeploymentWatcher(d, engine, Map.of(), manual, Runnable::run, 500,
                script -> seen.add("onLoaded " + script.bundle().deploymentId()),
                new DeploymentPlugins(d, null, tmp.resolve("plugins"), Runnable::run))
                .loadSteps((id, step) -> seen.add(id + " " + step));
    }

    /** A deployment made current; returns its id. */
    private String push() {
        DeploymentStore d = new DeploymentStore(bucket);
        byte[] code = ("export default { fetch() { return new Response('" + System.nanoTime() + "'); } };").getBytes(StandardCharsets.UTF_8);
        d.putBlob(code).join();
        long now = System.currentTimeMillis();
        String id = DeploymentIds.next(now);
        Manifest m = new Manifest(id, "w", now, "index.js", List.of(new Manifest.BlobRef("index.js", DeploymentStore.sha256(code),
                code.length)), Map.of(), Map.of(), null, "2025-04-01", List.of(), null, List.of());
        assertThat(d.putManifest(m).join().written()).isTrue();
        assertThat(d.moveCurrent(d.current().join(), id, now).join().written()).isTrue();
        return id;
    }

    /** An engine whose first {@code failures} loads throw "does not compile"; then it loads anything. */
    private static JsEngine engine(int failures) {
        AtomicInteger left = new AtomicInteger(failures);
        return new JsEngine() {
            @Override
            public EngineInfo info() {
                return null;
            }

            @Override
            public LoadedScript load(ScriptBundle bundle) throws ScriptLoadException {
                if (left.getAndDecrement() > 0) {
                    throw new ScriptLoadException("does not compile");
                }
                return new LoadedScript() {
                    @Override
                    public ScriptBundle bundle() {
                        return bundle;
                    }

                    @Override
                    public Set<String> exportedClasses() {
                        return Set.of();
                    }

                    @Override
                    public WorkerInstance newWorker(InstanceHost host) {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public CellInstance newCell(String className, CellIdentity id, CellHost host) {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public void close() {
                    }
                };
            }

            @Override
            public void close() {
            }
        };
    }

    /** A store whose reads of the keys {@code fails} picks fail. */
    private static final class FailingReads extends dev.cellgate.core.spi.bucket.ForwardingBucketStore {
        private final java.util.function.Predicate<String> fails;

        FailingReads(BucketStore inner, java.util.function.Predicate<String> fails) {
            super(inner);
            this.fails = fails;
        }

        @Override
        public CompletableFuture<Optional<StoredObject>> get(String key) {
            return fails.test(key) ? CompletableFuture.failedFuture(new IllegalStateException("manifest read failed")) : inner.get(key);
        }
    }
}
