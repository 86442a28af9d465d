package dev.cellgate.gateway.http;

import dev.cellgate.core.observe.LogContext;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.js.StubChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Public requests whose Durable Object call failed with a RETRYABLE error: the object was not
 * available (this node lost its lease and serves no cells — issue 29 —, its owner did, it could not
 * be reached), and nothing says the call ran. The Worker usually does not catch that error; when it
 * fails such a request, {@link WorkerRequests} answers 503 with {@code Retry-After} (SPEC §18: cell
 * routes answer 503 on a degraded node) instead of 500 "Worker threw an exception". A failure whose
 * outcome is unknown is not retryable and stays a Worker error.
 *
 * <p>Watches the stub calls of Worker instances ({@link #watching}); the request is named by its id
 * (the request's own for {@code fetch}, the log context's for RPC calls). Bounded: a mark nobody asks
 * about (the Worker caught the error and answered) goes when its request ends, else after
 * {@link #KEEP_MS}; at most {@link #MAX} are kept.
 */
public final class RetryableCellCalls {
    static final long KEEP_MS = 120_000;
    static final int MAX = 10_000;

    /** Why a Durable Object call failed in a way the public answer should say "retry later". */
    public enum Mark {
        /** Retryable: the object was not available and the call did not run. */
        UNAVAILABLE,
        /** Outcome unknown because the connection to its owner broke after sending: the owner may be dead (SPEC §18). */
        OWNER_LOST
    }

    private record Noted(Mark mark, long atMs) {}

    private final ConcurrentHashMap<String, Noted> marked = new ConcurrentHashMap<>();

    /**
     * The mark a failed call gives its request, or null: a gate failure on a live owner (outcome
     * unknown, owner not lost) and any other error give none and stay a Worker error (500).
     */
    public static Mark markOf(Throwable failure) {
        Throwable e = unwrap(failure);
        if (e instanceof dev.cellgate.core.spi.js.OutcomeUnknownException o) {
            return o.ownerLost() ? Mark.OWNER_LOST : null;
        }
        return e instanceof StubCallException s && s.retryable() ? Mark.UNAVAILABLE : null;
    }

    /** {@code inner}, with every retryable failure marking its request. */
    public StubChannel watching(StubChannel inner) {
        return new StubChannel() {
            @Override
            public CompletableFuture<HttpResponseData> fetch(CellIdentity target, HttpRequestData request) {
                return mark(request.requestId(), inner.fetch(target, request));
            }

            @Override
            public CompletableFuture<byte[]> call(CellIdentity target, String method, byte[] arguments) {
                return mark(org.slf4j.MDC.get(LogContext.REQUEST_ID), inner.call(target, method, arguments));
            }

            // Calls on RPC objects another node exported go through (and mark like the others): without these the
            // interface's defaults would answer "no route" for every cross-node stub.
            @Override
            public CompletableFuture<byte[]> callExport(String node, String key, String op, String pathJson, byte[] arguments) {
                return mark(org.slf4j.MDC.get(LogContext.REQUEST_ID), inner.callExport(node, key, op, pathJson, arguments));
            }

            @Override
            public CompletableFuture<Void> releaseExport(String node, String key) {
                return inner.releaseExport(node, key);
            }
        };
    }

    private <T> CompletableFuture<T> mark(String requestId, CompletableFuture<T> call) {
        if (requestId != null) {
            call.whenComplete((v, e) -> {
                Mark m = e == null ? null : markOf(e);
                if (m != null) {
                    note(requestId, m, System.currentTimeMillis());
                }
            });
        }
        return call;
    }

    void note(String requestId, long nowMs) {
        note(requestId, Mark.UNAVAILABLE, nowMs);
    }

    void note(String requestId, Mark mark, long nowMs) {
        // OWNER_LOST wins over UNAVAILABLE: the body should say the call may have run
        marked.merge(requestId, new Noted(mark, nowMs), (old, n) -> old.mark() == Mark.OWNER_LOST ? new Noted(old.mark(), nowMs) : n);
        if (marked.size() > MAX) {
            marked.entrySet().removeIf(en -> nowMs - en.getValue().atMs() > KEEP_MS);
            if (marked.size() > MAX) {
                marked.clear(); // a flood nobody asks about: forgetting costs only those requests' 503s
            }
        }
    }

    /** Whether a Durable Object call of {@code requestId} failed retryably or lost its owner; forgets it. */
    public boolean take(String requestId) {
        return takeMark(requestId) != null;
    }

    /** Why a Durable Object call of {@code requestId} failed (null: no mark); forgets it. */
    public Mark takeMark(String requestId) {
        if (requestId == null) {
            return null;
        }
        Noted n = marked.remove(requestId);
        return n == null ? null : n.mark();
    }

    int size() {
        return marked.size();
    }

    private static Throwable unwrap(Throwable e) {
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
