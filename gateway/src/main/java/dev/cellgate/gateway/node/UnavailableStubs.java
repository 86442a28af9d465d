package dev.cellgate.gateway.node;

import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.js.StubChannel;
import java.util.concurrent.CompletableFuture;

/** Stub calls before the cell host exists: a clear, non-retryable error (never a silent stub). */
final class UnavailableStubs implements StubChannel {
    private static StubCallException error() {
        return new StubCallException("Durable Objects are not available on this node build yet", false, null);
    }

    @Override
    public CompletableFuture<HttpResponseData> fetch(CellIdentity target, HttpRequestData request) {
        return CompletableFuture.failedFuture(error());
    }

    @Override
    public CompletableFuture<byte[]> call(CellIdentity target, String method, byte[] arguments) {
        return CompletableFuture.failedFuture(error());
    }
}
