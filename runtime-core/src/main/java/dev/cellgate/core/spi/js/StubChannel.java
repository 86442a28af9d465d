package dev.cellgate.core.spi.js;

import java.util.concurrent.CompletableFuture;

/**
 * Delivers calls on Durable Object stubs to the cell, wherever it lives (this node or a peer).
 * The futures complete on any thread: post them to the caller's executor before touching JS.
 */
public interface StubChannel {

    CompletableFuture<HttpResponseData> fetch(CellIdentity target, HttpRequestData request);

    /**
     * An RPC method call. {@code arguments} and the result are the engine's structured-clone
     * serialization; a thrown error travels inside the result bytes, so the future fails only when
     * the call could not be delivered (then with {@link StubCallException}).
     */
    CompletableFuture<byte[]> call(CellIdentity target, String method, byte[] arguments);
}
