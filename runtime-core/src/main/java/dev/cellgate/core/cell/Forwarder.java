package dev.cellgate.core.cell;

import dev.cellgate.core.logic.ForwardFailure;
import dev.cellgate.core.logic.WakeEntryVerdict;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * Sends a cell call to another node (the fleet's peer protocol implements it). A failure comes as
 * a {@link ForwardFailedException} saying what happened, so the router can tell a call that
 * provably did not run (and may be re-sent) from one that may have run.
 */
public interface Forwarder {

    /**
     * The request with a body that can be sent more than once: a streamed body is read into memory
     * here, once (bounded by the peer body limit), so that a reroute can send it again.
     */
    CompletableFuture<HttpRequestData> replayable(HttpRequestData request);

    /** Forwards to the node that owns the cell. */
    CompletableFuture<HttpResponseData> fetch(String node, CellIdentity id, HttpRequestData request);

    CompletableFuture<byte[]> call(String node, CellIdentity id, String method, byte[] arguments);

    /**
     * Asks the node to make the cell resident (activate it, or re-arm its alarm) and to judge the due
     * wake entry of {@code entryMinuteMs} (empty: none): the waker's call. See {@code CellWaker}.
     */
    CompletableFuture<WakeEntryVerdict.Reply> wake(String node, CellIdentity id, OptionalLong entryMinuteMs);

    /**
     * A call on an object {@code node} exported over JS RPC (its key names it; see
     * {@code ExportedObjects}): sent once, never re-sent. A signed refusal (the node does not hold
     * the key) comes back as {@link ForwardFailedException#answered}.
     */
    default CompletableFuture<byte[]> callExport(String node, String key, String op, String pathJson, byte[] arguments) {
        return CompletableFuture.failedFuture(new ForwardFailedException(ForwardFailure.Kind.REFUSED,
                "this node's peer link has no route for calls on objects exported by node " + node));
    }

    /** The holder here disposed its stub {@code key} of an object on {@code node} (idempotent). */
    default CompletableFuture<Void> releaseExport(String node, String key) {
        return CompletableFuture.completedFuture(null);
    }

    /** A live node with capacity to activate a cell this node cannot take, or null when none. */
    String placementTarget();
}
