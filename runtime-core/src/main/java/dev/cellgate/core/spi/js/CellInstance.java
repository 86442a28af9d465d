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

    /**
     * A message or close on one of the cell's hibernatable WebSockets ({@link HibernatableSockets}):
     * runs {@code webSocketMessage(ws, message)} or {@code webSocketClose(ws, code, reason, wasClean)}.
     * Completes when the handler's promise settled.
     */
    default CompletableFuture<Void> webSocketEvent(String socketId, WsFrame frame) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("this engine does not deliver WebSocket events"));
    }

    /** A failure on a hibernatable WebSocket: runs {@code webSocketError(ws, error)}. */
    default CompletableFuture<Void> webSocketError(String socketId, String message) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("this engine does not deliver WebSocket events"));
    }

    /**
     * Closes every WebSocket the instance itself holds (accepted with {@code accept()}, not
     * hibernatable) with {@code code}: the cell is leaving this node. An engine without such
     * sockets has nothing to do.
     */
    default void closeWebSockets(int code, String reason) {
    }

    /** Events still running inside the instance (handlers, {@code waitUntil}, {@code blockConcurrencyWhile}). */
    int eventsInFlight();

    /** Drops the context. Called on the cell's executor after the last event finished, or on fencing. */
    @Override
    void close();
}
