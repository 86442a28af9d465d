package dev.cellgate.core.spi.js;

import java.util.concurrent.CompletableFuture;

/** A stateless Worker: the module's default export. Events are delivered on the instance's executor. */
public interface WorkerInstance extends AutoCloseable {

    /** Runs {@code export default { fetch }}; the future completes with the response or fails with the JS error. */
    CompletableFuture<HttpResponseData> fetch(HttpRequestData request);

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
