package dev.cellgate.core.fleet;

import dev.cellgate.core.async.AsyncLimiter;
import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.logic.DeadNodeVerdict;
import dev.cellgate.core.logic.Backoff;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.logic.MarkerKeys;
import dev.cellgate.core.logic.OwnerLease;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.MalformedRecordException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.time.Ticker;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dead-node GC, {@code run_pass} of seed 001 (SPEC §11): run by the waker holder once per tick.
 * <ol>
 * <li>list {@code nodes/} and read each record; {@link DeadNodeVerdict} says which are dead;</li>
 * <li>for a dead node, delete its {@code node-cells/} markers first, {@value #MARKER_PARALLELISM} at
 * a time. If any deletion fails, the node waits {@link #RETRY_MAX_TICKS capped doubling} ticks (in memory only) and its
 * lease stays: the lease is how the next pass finds the markers again;</li>
 * <li>then retire the lease: a tombstone CAS ({@code expires_ms: 0}) on the version that was read,
 * then a plain delete. Object stores have no conditional delete; the CAS is the condition. If it
 * fails, the node renewed after the read: nothing is deleted. A crash between the CAS and the
 * delete leaves a tombstone, which reads as dead, so the next pass deletes it.</li>
 * </ol>
 * Residual window, inherent without a conditional delete: a process of the same node id that
 * starts between our CAS and our delete writes its first lease over the tombstone and loses it to
 * the delete; its first renewal then fails and it fences itself (no data is at risk, it restarts).
 */
public final class DeadNodeGc {
    private static final Logger LOG = LoggerFactory.getLogger(DeadNodeGc.class);
    public static final int MARKER_PARALLELISM = 64;
    /**
     * A node whose marker deletions failed is retried one tick later, then after doubling rests
     * capped at this many ticks ({@link Backoff#ticks}). The cap keeps a storage outage from pushing
     * a retry days away; the doubling keeps a persistently failing bucket from being hammered every
     * tick (no retry storm). The state lives in memory only: a restart starts over.
     */
    static final long RETRY_MAX_TICKS = 64;
    /** Lease records read at once; a pass over a few hundred nodes fits well inside one tick. */
    static final int NODE_PARALLELISM = 8;

    private final BucketStore store;
    private final Ticker ticker;
    private final long tickMs;
    private final Backoff retryBackoff;
    /** Nodes whose marker deletions failed: consecutive failures and the earliest next attempt. */
    private final Map<String, Retry> retries = new HashMap<>();
    private CompletableFuture<PassReport> running;
    private long runningSinceMs;
    static final int STALE_PASS_TICKS = 3;

    private record Retry(int failures, long notBeforeMs) {
    }

    /** What one pass did. {@code deferred} counts dead nodes skipped because their backoff has not elapsed. */
    public record PassReport(int dead, int markersDeleted, int retired, int failures, int deferred, boolean cancelled) {
    }

    private final Liveness liveness;
    /** BROKEN ON PURPOSE when true (only {@link #brokenWithoutTombstoneForTests}): a dead lease is deleted without its tombstone CAS. */
    private final boolean skipsTombstone;

    /** With the default clock-skew margin (tests); a node passes its configured one. */
    public DeadNodeGc(BucketStore store, Ticker ticker, long tickMs) {
        this(store, ticker, tickMs, Liveness.withSkew(Liveness.DEFAULT_SKEW_MS));
    }

    /** @param liveness a lease is dead only past its expiry plus the clock-skew margin (SPEC §20) */
    public DeadNodeGc(BucketStore store, Ticker ticker, long tickMs, Liveness liveness) {
        this(store, ticker, tickMs, liveness, false);
    }

    /**
     * BROKEN ON PURPOSE, for the simulator's broken variant only: the GC deletes a lease it judged dead
     * without the tombstone CAS, so a renewal that landed after its read is deleted too. No
     * configuration reaches it.
     */
    public static DeadNodeGc brokenWithoutTombstoneForTests(BucketStore store, Ticker ticker, long tickMs, Liveness liveness) {
        return new DeadNodeGc(store, ticker, tickMs, liveness, true);
    }

    private DeadNodeGc(BucketStore store, Ticker ticker, long tickMs, Liveness liveness, boolean skipsTombstone) {
        this.liveness = liveness;
        this.skipsTombstone = skipsTombstone;
        if (tickMs < 1) {
            throw new IllegalArgumentException("GC tick must be positive, got " + tickMs);
        }
        this.store = store;
        this.ticker = ticker;
        this.tickMs = tickMs;
        this.retryBackoff = Backoff.ticks(tickMs, RETRY_MAX_TICKS);
    }

    public CompletableFuture<PassReport> runPass() {
        return runPass(() -> false);
    }

    /**
     * One pass; a pass already running is joined rather than doubled.
     *
     * @param cancelled checked before each node and before each retirement: the waker cancels the
     *                  pass when its lease renewal fails
     */
    public synchronized CompletableFuture<PassReport> runPass(BooleanSupplier cancelled) {
        long now = ticker.nowMs();
        // A pass stuck on a call that never answers must not stop the GC for good: after a few
        // ticks a new pass starts beside it (two passes at once are as harmless as two holders).
        if (running != null && !running.isDone() && now - runningSinceMs < STALE_PASS_TICKS * tickMs) {
            return running;
        }
        Pass pass = new Pass(cancelled, now);
        runningSinceMs = now;
        running = pass.run();
        return running;
    }

    /** Consecutive failures recorded for {@code node} (0 when none), for tests and diagnostics. */
    public synchronized int failuresOf(String node) {
        Retry r = retries.get(node);
        return r == null ? 0 : r.failures();
    }

    private final class Pass {
        private final BooleanSupplier cancelled;
        private final long nowMs;
        private final AtomicInteger dead = new AtomicInteger();
        private final AtomicInteger markers = new AtomicInteger();
        private final AtomicInteger retired = new AtomicInteger();
        private final AtomicInteger failures = new AtomicInteger();
        private final AtomicInteger deferred = new AtomicInteger();

        Pass(BooleanSupplier cancelled, long nowMs) {
            this.cancelled = cancelled;
            this.nowMs = nowMs;
        }

        CompletableFuture<PassReport> run() {
            return Listings.all(store, Keys.NODES).thenCompose(keys -> {
                forgetAbsent(keys);
                return AsyncLimiter.forEach(keys, NODE_PARALLELISM, this::node);
            }).handle((tally, e) -> {
                if (e != null) {
                    failures.incrementAndGet();
                    LOG.atWarn().setMessage("dead_node_gc.list_failed").addKeyValue("error", Errors.rootMessage(e)).log();
                } else {
                    tally.failures().forEach(t -> {
                        failures.incrementAndGet();
                        LOG.atWarn().setMessage("dead_node_gc.node_failed").addKeyValue("error", Errors.rootMessage(t)).log();
                    });
                }
                PassReport r = new PassReport(dead.get(), markers.get(), retired.get(), failures.get(), deferred.get(),
                        cancelled.getAsBoolean());
                LOG.atInfo().setMessage("dead_node_reconciliation").addKeyValue("markers_deleted", r.markersDeleted())
                        .addKeyValue("retired", r.retired()).addKeyValue("failures", r.failures())
                        .addKeyValue("dead", r.dead()).addKeyValue("deferred", r.deferred())
                        .addKeyValue("cancelled", r.cancelled()).log();
                return r;
            });
        }

        private CompletableFuture<Void> node(String key) {
            String node = Keys.nodeOfLeaseKey(key);
            if (node == null || cancelled.getAsBoolean()) {
                return CompletableFuture.completedFuture(null);
            }
            return store.get(key).thenCompose(o -> {
                if (o.isEmpty()) {
                    return CompletableFuture.completedFuture(null); // retired meanwhile
                }
                OwnerLease lease;
                try {
                    lease = new OwnerLease.Present(LeaseRecord.decode(o.get().bytes()));
                } catch (MalformedRecordException e) {
                    lease = new OwnerLease.Malformed(e.getMessage());
                    LOG.atWarn().setMessage("dead_node_gc.malformed_lease").addKeyValue("key", key)
                            .addKeyValue("error", e.getMessage()).log();
                }
                if (!DeadNodeVerdict.nodeRecordIsDead(node, lease, nowMs, liveness)) {
                    forget(node);
                    return CompletableFuture.completedFuture(null);
                }
                dead.incrementAndGet();
                if (!due(node)) {
                    deferred.incrementAndGet();
                    return CompletableFuture.completedFuture(null);
                }
                LeaseRecord record = ((OwnerLease.Present) lease).lease();
                String version = o.get().version();
                return deleteMarkers(node).thenCompose(clean -> clean && !cancelled.getAsBoolean()
                        ? retire(node, key, record, version) : CompletableFuture.completedFuture(null));
            });
        }

        /** Completes true when every marker of {@code node} is gone. */
        private CompletableFuture<Boolean> deleteMarkers(String node) {
            return Listings.all(store, Keys.markersOf(node)).thenCompose(keys -> {
                List<String> valid = keys.stream().filter(k -> {
                    boolean ok = MarkerKeys.parseMarkerKey(k).map(m -> m.node().equals(node)).orElse(false);
                    if (!ok) {
                        LOG.atWarn().setMessage("dead_node_gc.marker_malformed").addKeyValue("key", k).log();
                    }
                    return ok;
                }).toList();
                return AsyncLimiter.forEach(valid, MARKER_PARALLELISM, store::delete);
            }).handle((tally, e) -> {
                int failed = e != null ? 1 : tally.failed();
                if (tally != null) {
                    markers.addAndGet(tally.succeeded());
                }
                if (failed == 0) {
                    forget(node);
                    return true;
                }
                failures.addAndGet(failed);
                Throwable cause = e != null ? e : tally.failures().get(0);
                backOff(node, Errors.rootMessage(cause));
                return false;
            });
        }

        private CompletableFuture<Void> retire(String node, String key, LeaseRecord record, String version) {
            CompletableFuture<WriteOutcome> tombstone = skipsTombstone
                    ? CompletableFuture.completedFuture(new WriteOutcome.Written(version))
                    : store.putIfVersion(key, record.withExpiry(0).encode(), version);
            return tombstone.thenCompose(outcome -> switch (outcome) {
                case WriteOutcome.Written w -> store.delete(key).handle((x, e) -> {
                    if (e != null) {
                        failures.incrementAndGet(); // the tombstone stays and reads as dead: next pass
                        LOG.atWarn().setMessage("dead_node_gc.delete_failed").addKeyValue("dead_node", node)
                                .addKeyValue("error", Errors.rootMessage(e)).log();
                    } else {
                        retired.incrementAndGet();
                    }
                    return null;
                });
                case WriteOutcome.Rejected r -> {
                    LOG.atInfo().setMessage("dead_node_gc.renewed").addKeyValue("dead_node", node).log();
                    yield CompletableFuture.completedFuture(null);
                }
                case WriteOutcome.Ambiguous a -> {
                    // Landed or not, the next pass finds a dead record (ours or the original) and retries.
                    failures.incrementAndGet();
                    LOG.atWarn().setMessage("dead_node_gc.tombstone_ambiguous").addKeyValue("dead_node", node)
                            .addKeyValue("error", a.reason()).log();
                    yield CompletableFuture.completedFuture(null);
                }
            });
        }

        /**
         * Due when the backoff has elapsed, with half a tick of slack: passes run once per tick on a
         * timer that may fire a little early or late, and "retry after N ticks" must mean the N-th
         * pass, not N-th pass plus one because of a few milliseconds.
         */
        private boolean due(String node) {
            synchronized (DeadNodeGc.this) {
                Retry r = retries.get(node);
                return r == null || nowMs + tickMs / 2 >= r.notBeforeMs();
            }
        }

        private void backOff(String node, String error) {
            int n;
            long delayTicks;
            synchronized (DeadNodeGc.this) {
                Retry old = retries.get(node);
                n = old == null ? 1 : old.failures() + 1;
                long delayMs = retryBackoff.ceilingMs(n);
                delayTicks = delayMs / tickMs;
                retries.put(node, new Retry(n, nowMs + delayMs));
            }
            LOG.atWarn().setMessage("dead_node_gc.retry_scheduled").addKeyValue("dead_node", node).addKeyValue("failures", n)
                    .addKeyValue("delay_ticks", delayTicks).addKeyValue("error", error).log();
        }

        private void forget(String node) {
            synchronized (DeadNodeGc.this) {
                retries.remove(node);
            }
        }

        /** Backoff state for nodes whose lease is gone (retired, or deleted by their own shutdown) is dropped. */
        private void forgetAbsent(List<String> keys) {
            Set<String> listed = new HashSet<>();
            keys.forEach(k -> listed.add(Keys.nodeOfLeaseKey(k)));
            synchronized (DeadNodeGc.this) {
                retries.keySet().retainAll(listed);
            }
        }
    }
}
