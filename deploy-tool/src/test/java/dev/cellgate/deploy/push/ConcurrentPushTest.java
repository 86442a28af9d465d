package dev.cellgate.deploy.push;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.deploy.DeploymentStore;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.records.CurrentDeployment;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.deploy.wrangler.WranglerConfig;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two pushes racing for {@code deploy/current.json}. Both are lined up on a barrier after reading
 * {@code current} and before writing it, so they really collide on the same version. With
 * compare-and-swap one wins, the other is rejected, re-reads and lands on top: both deployments
 * are in history and the chain of {@code previous} pointers runs through both. The broken variant
 * (an unconditional write) lets both "win" on the same predecessor, losing one silently; the
 * history check catches it.
 */
class ConcurrentPushTest {
    @TempDir
    Path tmp;

    static Bundle bundle(String text) {
        return new Bundle(WranglerConfig.parse(new JsonObject(), "test"), "racer", "index.js",
                Map.of("index.js", ("export default { fetch() { return new Response('" + text + "'); } };\n").getBytes(StandardCharsets.UTF_8)),
                List.of(), "test");
    }

    /** Runs two publishers that meet at a barrier before their first move of current. */
    List<Publisher.Result> race(BucketStore store, CurrentMove broken) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Publisher.Result>> fs = new ArrayList<>();
            for (String v : new String[] {"a", "b"}) {
                AtomicBoolean first = new AtomicBoolean(true);
                Publisher p = new Publisher(store, dev.cellgate.deploy.progress.Progress.OFF, broken, () -> {
                    if (first.getAndSet(false)) {
                        try {
                            barrier.await(30, TimeUnit.SECONDS);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }
                });
                fs.add(pool.submit(() -> p.publish(bundle(v))));
            }
            List<Publisher.Result> out = new ArrayList<>();
            for (Future<Publisher.Result> f : fs) {
                out.add(f.get(60, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Every successful push replaced a distinct predecessor, and walking {@code previous} back
     * from the final current visits every pushed deployment: nothing was lost from history.
     */
    static boolean historyIsLinear(List<Publisher.Result> results, CurrentDeployment current, String before) {
        Set<String> previous = new HashSet<>();
        for (Publisher.Result r : results) {
            if (!previous.add(String.valueOf(r.previous()))) {
                return false;
            }
        }
        Map<String, String> prevOf = new java.util.HashMap<>();
        results.forEach(r -> prevOf.put(r.deployment(), r.previous()));
        Set<String> seen = new HashSet<>();
        String at = current.deployment();
        while (at != null && prevOf.containsKey(at) && seen.add(at)) {
            at = prevOf.get(at);
        }
        return seen.size() == results.size() && java.util.Objects.equals(at, before);
    }

    BucketStore store() {
        return new BucketStores(null).open("file://" + tmp.resolve("bucket"), StoreOptions.none());
    }

    @Test
    void twoConcurrentPushesBothLandInHistoryAndExactlyOneIsCurrent() throws Exception {
        try (BucketStore store = store()) {
            DeploymentStore d = new DeploymentStore(store);
            String before = new Publisher(store, dev.cellgate.deploy.progress.Progress.OFF).publish(bundle("seed")).deployment();
            List<Publisher.Result> rs = race(store, null);
            assertThat(rs).extracting(Publisher.Result::casRetries).as("exactly one lost the race and retried")
                    .containsExactlyInAnyOrder(0, 1);
            CurrentDeployment cur = d.current().join().orElseThrow().value();
            Publisher.Result retried = rs.stream().filter(r -> r.casRetries() == 1).findFirst().orElseThrow();
            Publisher.Result won = rs.stream().filter(r -> r.casRetries() == 0).findFirst().orElseThrow();
            assertThat(cur.deployment()).isEqualTo(retried.deployment());
            assertThat(cur.previous()).isEqualTo(won.deployment());
            assertThat(won.previous()).isEqualTo(before);
            assertThat(d.list().join()).contains(won.deployment(), retried.deployment(), before).hasSize(3);
            assertThat(historyIsLinear(rs, cur, before)).isTrue();
        }
    }

    @Test
    void theFirstPushEverRacesOnCreateOnlyJustTheSame() throws Exception {
        try (BucketStore store = store()) {
            List<Publisher.Result> rs = race(store, null);
            CurrentDeployment cur = new DeploymentStore(store).current().join().orElseThrow().value();
            assertThat(rs).extracting(Publisher.Result::casRetries).containsExactlyInAnyOrder(0, 1);
            assertThat(historyIsLinear(rs, cur, null)).isTrue();
        }
    }

    @Test
    void brokenVariantAnUnconditionalWriteLosesAPushAndTheCheckCatchesIt() throws Exception {
        try (BucketStore store = store()) {
            DeploymentStore d = new DeploymentStore(store);
            String before = new Publisher(store, dev.cellgate.deploy.progress.Progress.OFF).publish(bundle("seed")).deployment();
            CurrentMove unconditional = (expected, id, now) -> store.put(Keys.CURRENT_DEPLOYMENT,
                    new CurrentDeployment(id, expected.map(r -> r.value().deployment()).orElse(null), now).encode());
            List<Publisher.Result> rs = race(store, unconditional);
            assertThat(rs).extracting(Publisher.Result::casRetries).as("both believe they won outright").containsOnly(0);
            CurrentDeployment cur = d.current().join().orElseThrow().value();
            assertThat(historyIsLinear(rs, cur, before)).isFalse();
        }
    }
}
