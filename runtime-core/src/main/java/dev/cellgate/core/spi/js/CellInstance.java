package dev.cellgate.core.spi.js;

import java.util.concurrent.CompletableFuture;

/**
 * One constructed Durable Object. Every method is called on the cell's executor; the engine
 * keeps Cloudflare's ordering rules inside (input gate while a storage promise is pending,
 * {@code blockConcurrencyWhile} holding all other events).
 */
public interface CellInstance extends AutoCloseable {

    CompletableFuture<HttpResponseData> fetch(HttpRequestData request);

    /** An RPC method call; arguments and result are structured-clone bytes (see {@link StubChannel#call}). */
    CompletableFuture<byte[]> call(String method, byte[] arguments);

    /** Runs the class's {@code alarm({retryCount, isRetry})}; fails when the handler throws. */
    CompletableFuture<Void> alarm(int retryCount, boolean isRetry);

    /** Events still running inside the instance (handlers, {@code waitUntil}, {@code blockConcurrencyWhile}). */
    int eventsInFlight();

    /** Drops the context. Called on the cell's executor after the last event finished, or on fencing. */
    @Override
    void close();
}
