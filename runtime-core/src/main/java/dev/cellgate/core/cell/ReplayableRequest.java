package dev.cellgate.core.cell;

import dev.cellgate.core.spi.js.HttpRequestData;
import java.util.concurrent.CompletableFuture;

/**
 * One stub fetch as the router may send it several times. A streamed body can be read only once,
 * so before the first forward it is buffered ({@link Forwarder#replayable}); every later attempt,
 * forwarded or local (a takeover after a reroute), sends the buffered copy. A local first attempt
 * that is turned away (owned elsewhere, draining, full) has not read the body.
 */
final class ReplayableRequest {
    private final HttpRequestData original;
    private CompletableFuture<HttpRequestData> buffered;

    ReplayableRequest(HttpRequestData original) {
        this.original = original;
    }

    /** What a local attempt delivers: the buffered copy once there is one. */
    synchronized HttpRequestData forLocal() {
        return buffered != null && buffered.isDone() && !buffered.isCompletedExceptionally() ? buffered.join() : original;
    }

    /** What a forwarded attempt sends: buffered on the first forward, the same copy after. */
    synchronized CompletableFuture<HttpRequestData> forRemote(Forwarder f) {
        if (buffered == null) {
            buffered = f.replayable(original);
        }
        return buffered;
    }
}
