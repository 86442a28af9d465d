package dev.cellgate.core.fleet;

import dev.cellgate.core.async.AsyncLimiter;
import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.LeaseDeaths;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.logic.WakeEntryVerdict;
import dev.cellgate.core.logic.WakeHorizon;
import dev.cellgate.core.logic.WakeKeys;
import dev.cellgate.core.logic.WakerLease;
import dev.cellgate.core.records.MalformedRecordException;
import dev.cellgate.core.records.WakerLeaseRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.time.Scheduler;
import dev.cellgate.core.time.Ticker;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet's background worker (SPEC §11, seed 001). Every tick each node tries to hold the
 * advisory lease {@code wake/waker.json} by CAS; the lease lasts {@link WakerLease#TTL_TICKS} ticks
 * and the holder renews it every tick (TTL/3). The holder scans the wake index for due alarms, asks
 * its host to wake those cells, then runs {@link DeadNodeGc}. Stale entries (the cell's alarm is
 * elsewhere or gone, or its class is) are deleted ({@link WakeEntryVerdict}); entries that keep
 * failing rest for a backoff and the scan pages past them, so they never starve later alarms. A failed renewal cancels the pass in
 * progress. Two holders at once (clock skew, a renewal racing a takeover) are harmless: wakes are
 * at-least-once and the GC's tombstone CAS makes a double retirement a no-op.
 */
public final class Waker {
    private static final Logger LOG = LoggerFactory.getLogger(Waker.class);
    /** Due cells taken per pass; the rest wait for the next tick (a backlog must not become a storm). */
    static final int MAX_DUE_PER_PASS = 1_000;
    /**
     * A pass still running after this many ticks is abandoned (cancelled, and a new one starts): a
     * host wake or a bucket call that never answers (a peer that hangs, a crashed node's socket)
     * must not stop every later alarm in the fleet.
     */
    static final int STALE_PASS_TICKS = WakerLease.TTL_TICKS;
    static final int WAKE_PARALLELISM = 16;

    private final BucketStore store;
    private final Self self;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final long tickMs;
    private final long ttlMs;
    private final WakeIndex index;
    private final CellWaker host;
    private final DeadNodeGc gc;
    private final Liveness liveness;
    private final WakeEntryVerdict verdict;
    /** What the waker remembers of entries that failed (their rest) or whose class was missing. */
    private final Map<String, WakeEntryVerdict.Memory> entryMemory = new ConcurrentHashMap<>();

    private boolean holding;
    private long expiresMs;
    private boolean leaseAttemptInFlight;
    private long attemptStartedMs;
    private long attempts;
    private Pass pass;
    private CompletableFuture<Void> passDone = CompletableFuture.completedFuture(null);
    private boolean stopped;
    private Scheduler.Cancellable timer;
    /** {@link #scanSoon} asked for a pass: one starts as soon as none is running. */
    private boolean scanRequested;
    /** Node leases (node/session) seen dead: a waker lease such a process holds is taken at once. */
    private final Set<String> deadHolders = ConcurrentHashMap.newKeySet();
    private CompletableFuture<TickReport> lastTick = CompletableFuture.completedFuture(new TickReport(false, false));

    /** What one tick did, for tests and the simulator. */
    public record TickReport(boolean holder, boolean passStarted) {
    }

    /** A running pass; its flag is what a failed renewal flips. */
    private static final class Pass {
        final long startedMs;
        volatile boolean cancelled;
        volatile boolean done;

        Pass(long startedMs) {
            this.startedMs = startedMs;
        }
    }

    /** With the default clock-skew margin (tests); a node passes its configured one. */
    public Waker(BucketStore store, Self self, Ticker ticker, Scheduler scheduler, long tickMs,
                 WakeIndex index, CellWaker host, DeadNodeGc gc) {
        this(store, self, ticker, scheduler, tickMs, index, host, gc, Liveness.withSkew(Liveness.DEFAULT_SKEW_MS), WakeEntryVerdict.CORRECT);
    }

    /** @param liveness another holder's waker lease is judged with the clock-skew margin (SPEC §20) */
    public Waker(BucketStore store, Self self, Ticker ticker, Scheduler scheduler, long tickMs,
                 WakeIndex index, CellWaker host, DeadNodeGc gc, Liveness liveness) {
        this(store, self, ticker, scheduler, tickMs, index, host, gc, liveness, WakeEntryVerdict.CORRECT);
    }

    /**
     * @param liveness another holder's waker lease is judged with the clock-skew margin (SPEC §20)
     * @param verdict {@link WakeEntryVerdict#CORRECT}, or a broken variant a test must catch (public for
     *                the protocol simulator; no configuration reaches it)
     */
    public Waker(BucketStore store, Self self, Ticker ticker, Scheduler scheduler, long tickMs,
                 WakeIndex index, CellWaker host, DeadNodeGc gc, Liveness liveness, WakeEntryVerdict verdict) {
        this.liveness = liveness;
        this.verdict = verdict;
        this.store = store;
        this.self = self;
        this.ticker = ticker;
        this.scheduler = scheduler;
        this.tickMs = tickMs;
        this.ttlMs = WakerLease.ttlMs(tickMs);
        this.index = index;
        this.host = host;
        this.gc = gc;
    }

    /** Ticks now, then every {@code tickMs}. */
    public synchronized void start() {
        schedule(0);
    }

    /**
     * A pass now rather than at the next tick (SPEC §18): the node's first deployment just loaded,
     * so cells can activate and alarms that came due (or come due soon) can run. The pass that ran
     * at start, before the deployment, could wake nothing; waiting a tick for the next one made
     * those alarms a tick late. When a pass is still running, another starts as soon as it ends.
     * What the waker remembered of failed entries is forgotten: those wakes failed for want of the
     * deployment (or of a class it now has), so their rest would only delay the alarms again.
     */
    public void scanSoon() {
        entryMemory.clear();
        requestPass();
    }

    private void requestPass() {
        synchronized (this) {
            if (stopped) {
                return;
            }
            scanRequested = true;
        }
        scheduler.after(0, this::tick);
    }

    /**
     * A peer's node lease is dead (SPEC §18): the alarms of the cells it owned can run elsewhere now,
     * so scan at once; a waker lease that process held is taken without waiting for its expiry.
     */
    public void nodeDied(String node, String session) {
        deadHolders.add(LeaseDeaths.key(node, session));
        requestPass(); // the rest of entries that failed stands: a death says nothing of why they failed
    }

    /** How many dead holders are remembered (tests: the set shrinks once the lease no longer names them). */
    int deadHoldersRemembered() {
        return deadHolders.size();
    }

    /** Stops ticking and cancels the pass; a held lease is given up so another node takes over at its next tick. */
    public CompletableFuture<Void> stop() {
        boolean wasHolding;
        synchronized (this) {
            stopped = true;
            if (timer != null) {
                timer.cancel();
            }
            cancelPass();
            wasHolding = holding;
            holding = false;
        }
        if (!wasHolding) {
            return CompletableFuture.completedFuture(null);
        }
        return readLease().thenCompose(cur -> {
            if (cur.record == null || !isOurs(cur.record)) {
                return CompletableFuture.<Void>completedFuture(null);
            }
            WakerLeaseRecord given = new WakerLeaseRecord(self.node(), self.session(), 0);
            return store.putIfVersion(Keys.WAKER, given.encode(), cur.version).thenApply(o -> (Void) null);
        }).exceptionally(e -> null);
    }

    /** This node believes it holds the waker lease: its last CAS succeeded and the expiry has not passed by its clock. */
    public synchronized boolean holds() {
        return holding && ticker.nowMs() < expiresMs;
    }

    /** One tick: take or renew the lease; when held and no pass is running, start one. */
    public CompletableFuture<TickReport> tick() {
        long now = ticker.nowMs(); // before the read: a lease judged expired was expired when read
        long attempt;
        synchronized (this) {
            // one lease attempt at a time, unless the last one has hung for a whole TTL
            if (stopped || (leaseAttemptInFlight && now - attemptStartedMs < ttlMs)) {
                return CompletableFuture.completedFuture(new TickReport(holds(), false));
            }
            leaseAttemptInFlight = true;
            attemptStartedMs = now;
            attempt = ++attempts;
        }
        return readLease().thenCompose(cur -> {
            String holder = cur.record == null ? null : LeaseDeaths.key(cur.record.node(), cur.record.session());
            boolean holderDead = holder != null && deadHolders.contains(holder);
            // only the holder the lease names can matter: a dead process never names it again once it is taken
            deadHolders.removeIf(k -> !k.equals(holder));
            WakerLease.Action action = WakerLease.decide(cur.record, cur.malformed, self.node(), self.session(), now, liveness, holderDead);
            if (action == WakerLease.Action.LEAVE) {
                return CompletableFuture.completedFuture(false);
            }
            WakerLeaseRecord mine = new WakerLeaseRecord(self.node(), self.session(), now + ttlMs);
            CompletableFuture<WriteOutcome> w = action == WakerLease.Action.CREATE
                    ? store.putIfAbsent(Keys.WAKER, mine.encode())
                    : store.putIfVersion(Keys.WAKER, mine.encode(), cur.version);
            return w.thenApply(o -> {
                if (o instanceof WriteOutcome.Written) {
                    synchronized (this) {
                        expiresMs = mine.expiresMs();
                    }
                    return true;
                }
                // Rejected: another node moved first. Ambiguous: maybe ours landed; the next tick sees RENEW.
                return false;
            });
        }).handle((held, e) -> {
            boolean start;
            Pass p;
            synchronized (this) {
                if (attempt != attempts) {
                    return new TickReport(holding && ticker.nowMs() < expiresMs, false); // superseded after hanging
                }
                leaseAttemptInFlight = false;
                boolean nowHolding = e == null && held && !stopped;
                if (!nowHolding && holding) {
                    LOG.atInfo().setMessage("waker.lease_lost").addKeyValue("error", e == null ? "" : Errors.rootMessage(e)).log();
                }
                holding = nowHolding;
                if (!holding) {
                    cancelPass(); // a failed renewal cancels the current pass
                }
                if (holding && pass != null && !pass.done && now - pass.startedMs >= STALE_PASS_TICKS * tickMs) {
                    LOG.atWarn().setMessage("waker.pass_abandoned").addKeyValue("running_ms", now - pass.startedMs).log();
                    pass.cancelled = true;
                    pass.done = true;
                }
                start = holding && (pass == null || pass.done);
                p = start ? (pass = new Pass(now)) : null;
                if (start) {
                    scanRequested = false;
                }
            }
            if (start) {
                CompletableFuture<Void> done = runPass(p);
                synchronized (this) {
                    passDone = done;
                }
            }
            return new TickReport(holds(), start);
        });
    }

    /** The latest pass (completed when none ran): lets tests and the simulator wait for it. */
    public synchronized CompletableFuture<Void> currentPass() {
        return passDone;
    }

    /** The latest scheduled tick, for tests. */
    synchronized CompletableFuture<TickReport> lastTick() {
        return lastTick;
    }

    private CompletableFuture<Void> runPass(Pass p) {
        long now = ticker.nowMs();
        // entries of minutes that start before the horizon are woken now: their alarms come due before the next scan
        return index.due(WakeHorizon.horizonMs(now, tickMs), MAX_DUE_PER_PASS, key -> standing(key, now)).thenCompose(due -> {
            if (due.complete()) {
                forgetAllBut(due); // entries deleted meanwhile (by their hosts, by another waker) leave the memory
            }
            PassCounts counts = new PassCounts();
            return AsyncLimiter.forEach(due.entries(), WAKE_PARALLELISM, en -> p.cancelled
                    ? CompletableFuture.completedFuture(null) : wakeOne(en, now, counts)).thenApply(t -> {
                        t.failures().forEach(err -> LOG.atWarn().setMessage("waker.entry_failed")
                                .addKeyValue("error", Errors.rootMessage(err)).log());
                        LOG.atInfo().setMessage("waker.scan").addKeyValue("due", due.entries().size())
                                .addKeyValue("kept", counts.kept.get()).addKeyValue("dropped", counts.dropped.get())
                                .addKeyValue("deleted", counts.deleted.get()).addKeyValue("failed", counts.failed.get())
                                .addKeyValue("resting", due.resting().size()).addKeyValue("cancelled", p.cancelled).log();
                        return null;
                    });
        }).exceptionally(e -> {
            LOG.atWarn().setMessage("waker.scan_failed").addKeyValue("error", Errors.rootMessage(e)).log();
            return null;
        }).thenCompose(x -> p.cancelled ? CompletableFuture.completedFuture(null) : gc.runPass(() -> p.cancelled))
                .handle((x, e) -> {
                    p.done = true;
                    boolean again;
                    synchronized (this) {
                        again = scanRequested && !stopped;
                    }
                    if (again) {
                        scheduler.after(0, this::tick); // scanSoon came while this pass ran
                    }
                    return (Void) null;
                });
    }

    /** What one pass did with its entries, for its log line. */
    private static final class PassCounts {
        final AtomicInteger kept = new AtomicInteger();
        final AtomicInteger dropped = new AtomicInteger();
        final AtomicInteger deleted = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
    }

    /** Wakes one entry's cell, then does what {@link WakeEntryVerdict#afterWake} says with the answer. */
    private CompletableFuture<Void> wakeOne(WakeKeys.WakeEntry en, long now, PassCounts counts) {
        String key = WakeKeys.key(en.minuteMs(), en.scope());
        CompletableFuture<WakeEntryVerdict.Reply> woken;
        try {
            woken = host.wake(en.scope(), en.minuteMs());
        } catch (RuntimeException e) {
            woken = CompletableFuture.failedFuture(e);
        }
        return woken.handle((reply, err) -> {
            WakeEntryVerdict.Verdict v = verdict.afterWake(err == null ? reply : null, memoryOf(key), now, tickMs);
            if (err != null || reply == WakeEntryVerdict.Reply.UNKNOWN) {
                counts.failed.incrementAndGet();
                LOG.atWarn().setMessage("waker.wake_failed").addKeyValue("scope", en.scope()).addKeyValue("entry", key)
                        .addKeyValue("error", err == null ? "no verdict in the host's answer" : Errors.rootMessage(err))
                        .addKeyValue("next", v.why()).log();
            } else if (reply == WakeEntryVerdict.Reply.DROPPED) {
                counts.dropped.incrementAndGet();
            } else if (reply == WakeEntryVerdict.Reply.KEPT) {
                counts.kept.incrementAndGet();
            }
            return v;
        }).thenCompose(v -> switch (v.action()) {
            case KEEP -> {
                remember(key, WakeEntryVerdict.Memory.NONE);
                yield CompletableFuture.<Void>completedFuture(null);
            }
            case RETRY_LATER -> {
                remember(key, v.memory());
                yield CompletableFuture.<Void>completedFuture(null);
            }
            case DELETE -> index.drop(en.scope(), en.minuteMs()).handle((x, e) -> {
                if (e != null) {
                    // a failed delete is a failure like any other: rest, then look again
                    remember(key, verdict.afterWake(null, memoryOf(key), now, tickMs).memory());
                    counts.failed.incrementAndGet();
                    LOG.atWarn().setMessage("waker.entry_delete_failed").addKeyValue("scope", en.scope()).addKeyValue("entry", key)
                            .addKeyValue("error", Errors.rootMessage(e)).log();
                } else {
                    remember(key, WakeEntryVerdict.Memory.NONE);
                    counts.deleted.incrementAndGet();
                    LOG.atInfo().setMessage("waker.entry_deleted").addKeyValue("scope", en.scope()).addKeyValue("entry", key)
                            .addKeyValue("why", v.why()).log();
                }
                return (Void) null;
            });
        });
    }

    private WakeIndex.Standing standing(String key, long now) {
        WakeEntryVerdict.Memory m = entryMemory.get(key);
        return m == null ? WakeIndex.Standing.FRESH : m.resting(now) ? WakeIndex.Standing.RESTING : WakeIndex.Standing.RETRY;
    }

    private WakeEntryVerdict.Memory memoryOf(String key) {
        return entryMemory.getOrDefault(key, WakeEntryVerdict.Memory.NONE);
    }

    private void remember(String key, WakeEntryVerdict.Memory m) {
        if (m.equals(WakeEntryVerdict.Memory.NONE)) {
            entryMemory.remove(key);
        } else {
            entryMemory.put(key, m);
        }
    }

    /** After a complete scan, only the entries still listed can need remembering. */
    private void forgetAllBut(WakeIndex.Due due) {
        Set<String> listed = new HashSet<>(due.resting());
        due.entries().forEach(en -> listed.add(WakeKeys.key(en.minuteMs(), en.scope())));
        entryMemory.keySet().retainAll(listed);
    }

    private synchronized void schedule(long delayMs) {
        if (stopped) {
            return;
        }
        timer = scheduler.after(delayMs, () -> {
            schedule(tickMs); // keep the cadence whatever this tick's I/O takes
            CompletableFuture<TickReport> t = tick();
            synchronized (this) {
                lastTick = t;
            }
        });
    }

    private void cancelPass() {
        if (pass != null) {
            pass.cancelled = true;
        }
    }

    private boolean isOurs(WakerLeaseRecord r) {
        return r.node().equals(self.node()) && r.session().equals(self.session());
    }

    private record Current(WakerLeaseRecord record, String version, boolean malformed) {
    }

    private CompletableFuture<Current> readLease() {
        return store.get(Keys.WAKER).thenApply((Optional<StoredObject> o) -> {
            if (o.isEmpty()) {
                return new Current(null, null, false);
            }
            try {
                return new Current(WakerLeaseRecord.decode(o.get().bytes()), o.get().version(), false);
            } catch (MalformedRecordException e) {
                LOG.atWarn().setMessage("waker.lease_malformed").addKeyValue("error", e.getMessage()).log();
                return new Current(null, o.get().version(), true);
            }
        });
    }
}
