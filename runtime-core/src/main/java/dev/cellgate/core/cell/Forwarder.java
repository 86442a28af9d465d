package dev.cellgate.core.cell;

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

    /** A live node with capacity to activate a cell this node cannot take, or null when none. */
    String placementTarget();
}
