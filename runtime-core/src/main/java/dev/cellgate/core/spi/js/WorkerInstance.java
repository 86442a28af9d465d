package dev.cellgate.core.spi.js;

import java.util.concurrent.CompletableFuture;

/** A stateless Worker: the module's default export. Events are delivered on the instance's executor. */
public interface WorkerInstance extends AutoCloseable {

    /**
     * Sets the instance up now (its context, the runtime, the module's evaluation) instead of at its
     * first event, so that event does not pay for it. Call on the instance's executor. Completes once
     * set up; fails with the set-up's error (the next event then tries again and fails with it).
     */
    CompletableFuture<Void> start();

    /** Runs {@code export default { fetch }}; the future completes with the response or fails with the JS error. */
    CompletableFuture<HttpResponseData> fetch(HttpRequestData request);

    /**
     * Runs {@code export default { scheduled }} for one occurrence of a cron trigger (SPEC §17):
     * {@code controller.cron} is {@code cron} as written, {@code controller.scheduledTime} the
     * occurrence (epoch ms). Completes when the handler and its {@code ctx.waitUntil} promises have
     * settled; fails with the JS error, or when the Worker has no scheduled handler. The default is
     * for engines without cron support: it fails, so a trigger is never silently dropped.
     */
    default CompletableFuture<Void> scheduled(String cron, long scheduledTimeMs) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException(
                "this JavaScript engine does not run scheduled events (cron triggers)"));
    }

    /**
     * Events still running inside the instance: handlers that have not answered and pending
     * {@code ctx.waitUntil} promises. A host that drains or retires a Worker waits for zero.
     * Called on the instance's executor. The default (0) is for engines that do not track it.
     */
    default int eventsInFlight() {
        return 0;
    }

    @Override
    void close();
}
