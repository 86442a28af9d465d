package dev.cellgate.core.cell;

import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.logic.ForwardFailure;
import dev.cellgate.core.logic.LocalRefusal;
import dev.cellgate.core.logic.WakeEntryVerdict;
import dev.cellgate.core.observe.LogContext;
import dev.cellgate.core.observe.RuntimeMetrics;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.ExportedObjects;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.OutcomeUnknownException;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.spi.js.StubChannel;
import dev.cellgate.core.time.Monotonic;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a stub call goes: to the cell here when this node owns it (or may take it), to the
 * owner's node when another live node owns it, to a node with capacity when this one is full.
 * A forwarded attempt that fails is sent again only when it provably did not run
 * ({@link ForwardFailure}): a call runs at most once.
 */
public final class CellRouter implements StubChannel {
    private static final Logger LOG = LoggerFactory.getLogger(CellRouter.class);
    /** How long a call keeps re-resolving an owner that moved, drains or is unreachable. */
    static final long REROUTE_BUDGET_MS = 5_000;

    private final Cells cells;
    private final io.vertx.core.Vertx vertx;
    /** Budgets and call timings are elapsed time: a wall clock stepped by NTP must not stretch or cut them. */
    private final Monotonic clock;
    private volatile Forwarder forwarder;
    private volatile RuntimeMetrics metrics = RuntimeMetrics.NOOP;
    private volatile ForwardFailure.Policy policy = ForwardFailure.Policy.AT_MOST_ONCE;
    private volatile String self;
    private volatile ExportedObjects exports;

    /** On the system's monotonic clock. */
    public CellRouter(Cells cells, io.vertx.core.Vertx vertx) {
        this(cells, vertx, Monotonic.SYSTEM);
    }

    /** @param clock measures the re-send budget and the call timings (a simulator drives it) */
    public CellRouter(Cells cells, io.vertx.core.Vertx vertx, Monotonic clock) {
        this.cells = cells;
        this.vertx = vertx;
        this.clock = clock;
    }

    public void forwarder(Forwarder f) {
        this.forwarder = f;
    }

    /** Tests only: swaps in the deliberately broken {@link ForwardFailure.Policy#RESEND_AFTER_DELIVERY}. */
    void policy(ForwardFailure.Policy p) {
        this.policy = p;
    }

    /** This node's name and its engine's exported objects (null: the engine has no JS RPC by reference). */
    public void exports(String selfNode, ExportedObjects local) {
        this.self = selfNode;
        this.exports = local;
    }

    /** Installs the node's metrics: every call is timed as served here or forwarded. */
    public void metrics(RuntimeMetrics m) {
        this.metrics = m == null ? RuntimeMetrics.NOOP : m;
    }

    @Override
    public CompletableFuture<HttpResponseData> fetch(CellIdentity target, HttpRequestData request) {
        try (LogContext.Scope s = LogContext.enter(request.requestId(), target.scope())) {
            ReplayableRequest replay = new ReplayableRequest(request);
            return route(target, () -> cells.fetch(target, replay.forLocal()),
                    (node, f) -> replay.forRemote(f).thenCompose(r -> f.fetch(node, target, r)), false);
        }
    }

    @Override
    public CompletableFuture<byte[]> call(CellIdentity target, String method, byte[] arguments) {
        try (LogContext.Scope s = LogContext.enter(null, target.scope())) {
            return route(target, () -> cells.call(target, method, arguments), (node, f) -> f.call(node, target, method, arguments),
                    false);
        }
    }

    /**
     * A call on an object another node exported: it can only run on that node (the object lives in
     * its memory), so a failure is judged by {@link ForwardFailure#exportVerdict}: re-sent to that
     * node only when it provably did not run (until the budget is spent), otherwise failed — as
     * retryable when it did not run, with an unknown outcome when it may have, as the owner said
     * when it refused (it does not hold the key).
     */
    @Override
    public CompletableFuture<byte[]> callExport(String node, String key, String op, String pathJson, byte[] arguments) {
        ExportedObjects local = exports;
        if (node.equals(self) && local != null) {
            return local.call(key, op, pathJson, arguments);
        }
        Forwarder f = forwarder;
        if (f == null) {
            return StubChannel.noRouteToExport(node);
        }
        return exportAttempt(f, node, key, op, pathJson, arguments, clock.elapsedMs() + REROUTE_BUDGET_MS);
    }

    private CompletableFuture<byte[]> exportAttempt(Forwarder f, String node, String key, String op, String pathJson, byte[] arguments,
                                                    long deadline) {
        return f.callExport(node, key, op, pathJson, arguments).exceptionallyCompose(e -> {
            Throwable c = Errors.unwrap(e);
            if (!(c instanceof ForwardFailedException ff)) {
                return CompletableFuture.failedFuture(c);
            }
            String what = "an object exported by node " + node;
            ForwardFailure.Verdict verdict = ForwardFailure.exportVerdict(policy, ff.kind());
            if (verdict == ForwardFailure.Verdict.RESEND && clock.elapsedMs() <= deadline) {
                return later(ForwardFailure.resendDelayMs(ff.kind()), () -> exportAttempt(f, node, key, op, pathJson, arguments, deadline));
            }
            RuntimeException error = switch (verdict) {
                case RESEND, NOT_RUN -> new StubCallException("the call on " + what + " did not run: " + ff.getMessage()
                        + (ff.kind() == ForwardFailure.Kind.NO_LIVE_LEASE ? " (its objects ended with it)" : ""),
                        ff.kind() != ForwardFailure.Kind.NO_LIVE_LEASE, ff);
                case OUTCOME_UNKNOWN -> outcomeUnknown(what, ff);
                case AS_ANSWERED -> ff.answered();
            };
            return CompletableFuture.failedFuture(error);
        });
    }

    /** Tells the exporting node its stub is gone: once, best effort (a lost release ends with the exporter's cell). */
    @Override
    public CompletableFuture<Void> releaseExport(String node, String key) {
        ExportedObjects local = exports;
        if (node.equals(self) && local != null) {
            local.release(key);
            return CompletableFuture.completedFuture(null);
        }
        Forwarder f = forwarder;
        return f == null ? CompletableFuture.completedFuture(null) : f.releaseExport(node, key);
    }

    /** @param idempotent the call may run more than once (a wake-up): any forwarding failure may be re-sent */
    private <T> CompletableFuture<T> route(CellIdentity target, java.util.function.Supplier<CompletableFuture<T>> local,
                                           BiFunction<String, Forwarder, CompletableFuture<T>> remote, boolean idempotent) {
        long deadline = clock.elapsedMs() + REROUTE_BUDGET_MS;
        long t0 = clock.elapsedNanos();
        // Which way the call went last (a reroute may turn a local call into a forwarded one).
        boolean[] forwarded = new boolean[1];
        BiFunction<String, Forwarder, CompletableFuture<T>> counted = (node, f) -> {
            forwarded[0] = true;
            return remote.apply(node, f);
        };
        CompletableFuture<T> out = attempt(target, local, counted, deadline, null, idempotent);
        RuntimeMetrics m = metrics;
        if (m != RuntimeMetrics.NOOP) {
            out.whenComplete((v, e) -> m.cellCall(forwarded[0], e == null, clock.elapsedNanos() - t0));
        }
        return out;
    }

    /**
     * One resolution. A forwarded attempt's failure goes to the policy: re-send (resolve again, until
     * the budget is spent) only when the call did not run; otherwise the call fails.
     */
    private <T> CompletableFuture<T> attempt(CellIdentity target, java.util.function.Supplier<CompletableFuture<T>> local,
                                             BiFunction<String, Forwarder, CompletableFuture<T>> remote, long deadline,
                                             ForwardFailedException last, boolean idempotent) {
        if (last != null && clock.elapsedMs() > deadline) {
            return CompletableFuture.failedFuture(new StubCallException("could not reach the owner of " + target.scope()
                    + " (" + last.getMessage() + "); retry", true, last));
        }
        return once(target, local, remote, last == null ? null : last.ownerHint()).exceptionallyCompose(e -> {
            Throwable c = Errors.unwrap(e);
            if (!(c instanceof ForwardFailedException f)) {
                return CompletableFuture.failedFuture(c);
            }
            ForwardFailure.Verdict verdict = policy.verdict(f.kind(), idempotent);
            if (verdict != ForwardFailure.Verdict.RESEND) {
                if (verdict != ForwardFailure.Verdict.AS_ANSWERED) {
                    cells.forgetOwner(target.scope()); // the next call reads the bucket again
                    LOG.atWarn().setMessage("forward.failed").addKeyValue("scope", target.scope()).addKeyValue("kind", f.kind())
                            .addKeyValue("verdict", verdict).addKeyValue("error", f.getMessage()).log();
                }
                return CompletableFuture.failedFuture(callerError(target, f, verdict));
            }
            cells.forgetOwner(target.scope()); // the owner this node had in mind is wrong or gone
            return later(ForwardFailure.resendDelayMs(f.kind()), () -> attempt(target, local, remote, deadline, f, idempotent));
        });
    }

    /** {@code next} started after {@code delayMs} (a re-send's pause), and its outcome. */
    private <T> CompletableFuture<T> later(long delayMs, java.util.function.Supplier<CompletableFuture<T>> next) {
        CompletableFuture<T> again = new CompletableFuture<>();
        vertx.setTimer(delayMs, id -> next.get().whenComplete((v, x) -> {
            if (x != null) {
                again.completeExceptionally(x);
            } else {
                again.complete(v);
            }
        }));
        return again;
    }

    /** The error a failed forward gives the caller (Cloudflare's shape: {@code retryable} says whether a retry is safe). */
    /** A forward whose outcome is unknown: lost with its owner when the connection broke after the send (SPEC §18). */
    private static OutcomeUnknownException outcomeUnknown(String what, ForwardFailedException f) {
        return f.kind() == ForwardFailure.Kind.LOST_AFTER_SEND
                ? OutcomeUnknownException.ownerLost(what, f) : OutcomeUnknownException.connectionLost(what, f);
    }

    private static RuntimeException callerError(CellIdentity target, ForwardFailedException f, ForwardFailure.Verdict verdict) {
        return switch (verdict) {
            case NOT_RUN -> new StubCallException(f.getMessage() + " (the call did not run; retry)", true, f);
            case OUTCOME_UNKNOWN -> outcomeUnknown(target.scope(), f);
            case AS_ANSWERED -> f.answered();
            case RESEND -> throw new IllegalStateException("a re-send is not an error");
        };
    }

    /** @param ownerHint the owner a peer named when it refused the previous try, or null */
    private <T> CompletableFuture<T> once(CellIdentity target, java.util.function.Supplier<CompletableFuture<T>> local,
                                          BiFunction<String, Forwarder, CompletableFuture<T>> remote, String ownerHint) {
        return local.get().exceptionallyCompose(e -> {
            Throwable c = Errors.unwrap(e);
            Forwarder f = forwarder;
            LocalRefusal.Why why = c instanceof OwnedElsewhereException ? LocalRefusal.Why.OWNED_ELSEWHERE
                    : c instanceof DrainingException ? LocalRefusal.Why.DRAINING
                    : c instanceof NodeFullException ? LocalRefusal.Why.FULL : null;
            if (why == null) {
                return CompletableFuture.failedFuture(c);
            }
            java.util.Optional<String> node = f == null ? java.util.Optional.empty() : LocalRefusal.target(why,
                    c instanceof OwnedElsewhereException o ? o.node() : null, ownerHint, f::placementTarget);
            if (node.isPresent()) {
                return remote.apply(node.get(), f);
            }
            return CompletableFuture.failedFuture(switch (why) {
                case OWNED_ELSEWHERE -> new StubCallException(c.getMessage() + " and this node has no peer link", true, c);
                case DRAINING -> c;
                case FULL -> new StubCallException("no node has capacity for " + target.scope() + " (" + c.getMessage() + ")", true, c);
            });
        });
    }

    /**
     * The waker's call for a due wake entry: the cell is made resident here, on its live owner, or on
     * a node with capacity, and that node judges the entry of {@code entryMinuteMs} (see {@code CellWaker}).
     * A wake-up is idempotent, so it may be sent again after any failure.
     */
    public CompletableFuture<WakeEntryVerdict.Reply> wake(CellIdentity target, OptionalLong entryMinuteMs) {
        return route(target, () -> cells.wake(target, entryMinuteMs), (node, f) -> f.wake(node, target, entryMinuteMs), true);
    }

    /** For tests and the peer listener: the local cell, no forwarding. */
    public <T> CompletableFuture<T> localOnly(Function<Cells, CompletableFuture<T>> op) {
        return op.apply(cells);
    }
}
