package dev.cellgate.core.spi.js;

import java.util.concurrent.CompletableFuture;

/** A stateless Worker: the module's default export. Events are delivered on the instance's executor. */
public interface WorkerInstance extends AutoCloseable {

    /** Runs {@code export default { fetch }}; the future completes with the response or fails with the JS error. */
    CompletableFuture<HttpResponseData> fetch(HttpRequestData request);

    @Override
    void close();
}
