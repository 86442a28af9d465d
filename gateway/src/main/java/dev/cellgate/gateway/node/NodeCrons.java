package dev.cellgate.gateway.node;

import dev.cellgate.core.deploy.ActiveTriggers;
import dev.cellgate.core.deploy.DeploymentWatcher;
import dev.cellgate.core.fleet.CronTicker;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.time.Scheduler;
import dev.cellgate.core.time.Ticker;
import dev.cellgate.core.worker.WorkerPool;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * A node's cron ticker (SPEC §17): the triggers of the deployment it runs, claimed fleet-wide in
 * the bucket, and run on one event-loop context of its own, so every cron run of a deployment
 * shares one stateless Worker instance (as requests on one event loop do) instead of making one each.
 */
final class NodeCrons {
    private NodeCrons() {
    }

    static CronTicker start(BucketStore bucket, String node, DeploymentWatcher deployments, WorkerPool workers,
                            BooleanSupplier mayRun) {
        CronTicker t = new CronTicker(bucket, node, Ticker.SYSTEM, Scheduler.system("cron-ticker"), new CronTicker.Host() {
            @Override
            public ActiveTriggers active() {
                return deployments.activeTriggers();
            }

            @Override
            public boolean mayRun() {
                return mayRun.getAsBoolean();
            }

            @Override
            public CompletableFuture<Void> run(String cron, long occurrenceMs) {
                return workers.scheduled(cron, occurrenceMs);
            }
        }, () -> NodeIdentity.randomHex(16));
        t.start();
        return t;
    }
}
