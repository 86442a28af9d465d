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

    /**
     * A call on an object another node's engine passed by reference (a JS RPC stub whose object
     * lives on {@code node}): {@code op} "call" or "get" along {@code pathJson} (a JSON array of
     * names), {@code arguments} and the result as in {@link #call}; {@code node}'s
     * {@link ExportedObjects} answers it. Never sent again once delivered (at most once): a failure
     * after delivery fails the call. A host without a route for such calls fails it at once
     * ({@link #noRouteToExport}). Abstract, as {@link #releaseExport} is: a wrapper that forgot to
     * pass these on would answer "no route" for every cross-node stub.
     */
    CompletableFuture<byte[]> callExport(String node, String key, String op, String pathJson, byte[] arguments);

    /**
     * The holder here disposed its stub {@code key} of an object on {@code node} (idempotent, so it
     * may be sent again). A host without a route drops it (completes at once): the object ends with
     * its exporter's session.
     */
    CompletableFuture<Void> releaseExport(String node, String key);

    /** What {@link #callExport} answers on a host with no route to other nodes' exported objects. */
    static CompletableFuture<byte[]> noRouteToExport(String node) {
        return CompletableFuture.failedFuture(new StubCallException("the object behind this RPC stub lives on node " + node
                + ", and this host has no route for calls on objects exported by another node", false, null));
    }
}
