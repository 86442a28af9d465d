package dev.cellgate.gateway.it;

import dev.cellgate.gateway.faults.Evidence;
import dev.cellgate.gateway.faults.FaultPlan.Action;
import dev.cellgate.gateway.faults.FaultProxy;
import dev.cellgate.gateway.faults.RetryBudget;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue K.3, no retry storm: three live nodes; the node that owns every writer's cell is answered
 * 429 on EVERY bucket request but its own lease's (so it stays alive and keeps trying for the
 * whole window, instead of fencing itself, which would end the measurement) while six writers keep
 * sending through all nodes. Its request rate, as its proxy counts it, must stay within what the
 * store's backoff allows for the chains that can be hitting the bucket at once
 * ({@link RetryBudget}); FaultProxyIT shows that a client without backoff fails the same check.
 * Afterwards the writers progress again, nothing acknowledged is lost, no double owner.
 */
class Throttle429Scenario {
    /** Chains that may hit the bucket at once on the throttled node: a request per writer, each cell's replication, background loops. */
    static final int CHAINS = Matrix.WRITERS + Matrix.WRITERS + 4;
    static final double SLACK = 1.5;

    @TempDir
    Path dir;

    @Test
    void sustained429KeepsTheNodesBucketRateBoundedAndLosesNothing() throws Exception {
        int seconds = Math.max(10, Matrix.SECONDS / 2);
        Evidence ev = Evidence.scenario("throttling-429", "3 nodes behind fault proxies; the owner of the 6 ledger writers' cells gets "
                + "429 on every bucket request except its own lease for " + seconds + " s while the writers keep sending through all "
                + "nodes; bound: " + CHAINS + " chains x the store's backoff (6 attempts, full jitter 100 ms..5 s), slack " + SLACK);
        ev.guard(() -> scenario(ev, seconds));
    }

    private void scenario(Evidence ev, int seconds) throws Exception {
        try (ProxiedFleet f = ProxiedFleet.create(dir, "throttle", Matrix.env(), 41)) {
            f.startAll(Matrix.NODES);
            String victim = Matrix.NODES.get(0);
            Matrix.ownAllThrough(f.node(victim), "thr");
            LedgerLoad load = new LedgerLoad("thr", w -> "thr" + w).start(Matrix.WRITERS, Matrix.spread(f, List.of()));
            Matrix.awaitProgress(load, Matrix.WRITERS, Duration.ofSeconds(120));
            FaultProxy p = f.proxy(victim);
            String lease = "nodes/" + victim + ".json";
            p.plan().add("429 but the lease", c -> !c.key().endsWith(lease), 1.0, Action.THROTTLE_429);
            long t0 = System.currentTimeMillis();
            Thread.sleep(seconds * 1000L);
            long t1 = System.currentTimeMillis();
            p.plan().clear();
            // whole seconds strictly inside the window: the first and last are partial
            long[] rate = p.stats().perSecond(t0 - t0 % 1000 + 1000, t1 - t1 % 1000);
            RetryBudget.Verdict v = RetryBudget.STORE_S3.judge(rate, CHAINS, SLACK);
            long before = load.ackedTotal();
            boolean resumed = Matrix.awaitProgress(load, before + Matrix.WRITERS, Duration.ofSeconds(300));
            boolean alive = f.node(victim) != null;
            ev.count("throttled_seconds", rate.length)
                    .count("requests_per_second", java.util.Arrays.toString(rate))
                    .count("answered_429", p.stats().count(Action.THROTTLE_429))
                    .count("rate", v.detail())
                    .check("429s were served during the window", p.stats().count(Action.THROTTLE_429) > 0 && rate.length > 0,
                            p.stats().count(Action.THROTTLE_429) + " answered 429")
                    .check("no retry storm: request rate within the backoff bound", v.ok(), v.detail())
                    .check("the throttled node stayed up (its lease was not throttled)", alive, alive ? "running" : "exited")
                    .check("writers progressed after the throttling ended", resumed, resumed ? "yes" : "no progress within 300 s");
            Matrix.finish(ev, f, load, 20);
        }
    }
}
