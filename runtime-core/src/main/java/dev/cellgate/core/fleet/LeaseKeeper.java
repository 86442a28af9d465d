package dev.cellgate.core.fleet;

import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.logic.ClockCheck;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.LeaseRenewal;
import dev.cellgate.core.logic.LeaseRenewal.Step;
import dev.cellgate.core.logic.LeaseStart;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.logic.OwnerLease;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.MalformedRecordException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.time.Monotonic;
import dev.cellgate.core.time.Scheduler;
import dev.cellgate.core.time.Ticker;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's lease {@code nodes/<node>.json} (SPEC §5, §20): written at start, renewed by CAS on
 * its own version every TTL/3 with the current load. Every decision (may it serve, what to publish,
 * which answer to adopt, when to hedge, retry or fence) is {@link LeaseRenewal}'s and
 * {@link LeaseStart}'s; this class reads, writes and keeps the timers.
 *
 * <p>The node serves only while its lease is valid on its MONOTONIC clock: the send time of the last
 * renewal that landed + TTL − {@code CELLD_CLOCK_SKEW_MS}. A wall clock stepped back cannot lengthen
 * that, and the published {@code expires_ms} never moves backward for this session.
 *
 * <p>A renewal that does not answer within {@link #attemptBudgetMs()} is hedged: another attempt
 * goes out against the same version, while the first may still answer. Without it one stuck request
 * (a dead pooled connection, an emulator stall) outlived the lease: the store's own attempt timeout
 * is 30 s, the lease 10 s, and a healthy node fenced itself (CrashS3IT in CI, exit 3).
 *
 * <p>Each lease write's answer carries the bucket's clock when the store tells it; this node
 * compares its own with it at start and on every renewal and warns loudly past the margin
 * ({@link ClockCheck}).
 */
public final class LeaseKeeper {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);
    /** Renewal periods a starting process waits for a tombstoned lease of its node to be deleted. */
    static final int TOMBSTONE_WAITS = LeaseStart.TOMBSTONE_WAITS;

    private final BucketStore store;
    private final Self self;
    private final String key;
    private final String advertise;
    private final int protocol;
    private final long ttlMs;
    private final Liveness liveness;
    private final Ticker ticker;
    private final Monotonic mono;
    private final Scheduler scheduler;
    private final Supplier<LeaseRecord.Load> load;
    private final Consumer<LeaseRenewal.Fence> onFence;
    private final LeaseRenewal machine;
    private final ClockCheck clock;

    private LeaseRecord record;
    private String version;
    /** Sessions of this node the process knows are over (a rejoin writes over their record). */
    private volatile java.util.Set<String> deadSessions = java.util.Set.of();
    /** Mirrors of the machine for readers on other threads (every request asks). */
    private volatile long servingUntilMono = Long.MIN_VALUE;
    private volatile long publishedExpiryMs;
    private volatile long lastClockOffsetMs;
    private Scheduler.Cancellable nextRenewal;
    private Scheduler.Cancellable expiryWatch;
    private Scheduler.Cancellable slowWatch;

    /** With the default margin for {@code ttlMs}, and {@code ticker} as the monotonic clock too (tests that never step it). */
    public LeaseKeeper(BucketStore store, Self self, String advertise, int protocol, long ttlMs, Ticker ticker,
                       Scheduler scheduler, Supplier<LeaseRecord.Load> load, Consumer<String> onFence) {
        this(store, self, advertise, protocol, ttlMs, Liveness.withSkew(Liveness.defaultSkewMs(ttlMs)), ticker, ticker::nowMs,
                scheduler, load, onFence);
    }

    public LeaseKeeper(BucketStore store, Self self, String advertise, int protocol, long ttlMs, Liveness liveness,
                       Ticker ticker, Monotonic mono, Scheduler scheduler, Supplier<LeaseRecord.Load> load,
                       Consumer<String> onFence) {
        this(store, self, advertise, protocol, ttlMs, liveness, ticker, mono, scheduler, load, onFence, null);
    }

    /**
     * The node's keeper: a fence is reported with its kind, so that a lapse can degrade the node where
     * a replacement exits it (issue 29).
     */
    public static LeaseKeeper reportingKinds(BucketStore store, Self self, String advertise, int protocol, long ttlMs,
                                             Liveness liveness, Ticker ticker, Monotonic mono, Scheduler scheduler,
                                             Supplier<LeaseRecord.Load> load, Consumer<LeaseRenewal.Fence> onFence) {
        return new LeaseKeeper(store, self, advertise, protocol, ttlMs, liveness, ticker, mono, scheduler, load, null, onFence);
    }

    private LeaseKeeper(BucketStore store, Self self, String advertise, int protocol, long ttlMs, Liveness liveness,
                        Ticker ticker, Monotonic mono, Scheduler scheduler, Supplier<LeaseRecord.Load> load,
                        Consumer<String> onCause, Consumer<LeaseRenewal.Fence> onFence) {
        this.store = store;
        this.self = self;
        this.key = Keys.lease(self.node());
        this.advertise = advertise;
        this.protocol = protocol;
        this.ttlMs = ttlMs;
        this.liveness = liveness;
        this.ticker = ticker;
        this.mono = mono;
        this.scheduler = scheduler;
        this.load = load;
        this.onFence = onFence != null ? onFence : f -> onCause.accept(f.cause());
        this.machine = new LeaseRenewal(key, ttlMs, liveness);
        this.clock = new ClockCheck(liveness.skewMs());
    }

    /**
     * Writes the first lease. When a live lease of another session holds this node id (typically
     * this node's previous process, killed moments ago), waits for it to expire past the margin — up
     * to three TTLs — and fails if it is still being renewed: then another live process runs with
     * this CELLD_NODE.
     */
    public CompletableFuture<Void> start() {
        return start(LeaseStart.giveUpAtMono(mono.elapsedMs(), ttlMs));
    }

    private CompletableFuture<Void> start(long giveUpAtMono) {
        return tryStart(0, 1).exceptionallyCompose(e -> {
            Throwable c = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
            if (!(c instanceof HeldByAnotherSession held)) {
                return CompletableFuture.failedFuture(c);
            }
            java.util.OptionalLong retry = LeaseStart.heldRetryInMs(held.expiresInMs, ttlMs, mono.elapsedMs(), giveUpAtMono);
            if (retry.isEmpty()) {
                return CompletableFuture.failedFuture(c);
            }
            LOG.atWarn().setMessage("lease.waiting_for_previous_session").addKeyValue("session", held.session)
                    .addKeyValue("expires_in_ms", held.expiresInMs).log();
            return later(retry.getAsLong(), () -> start(giveUpAtMono));
        });
    }

    /**
     * The start of a rejoin (issue 29): this process held {@code deadSessions} (or tried and gave them
     * up) and fenced them, so their record is written over at once. A live lease of any other session
     * is another process with this CELLD_NODE: the rejoin fails at once with {@link HeldByAnotherSession}
     * rather than waiting for it.
     */
    public CompletableFuture<Void> rejoin(java.util.Set<String> deadSessions) {
        this.deadSessions = java.util.Set.copyOf(deadSessions);
        return tryStart(0, 1);
    }

    /**
     * Gives up a start that has not finished (a rejoin past its deadline): whatever it still does,
     * it will not hold or renew a lease. Its write may land; the next start writes over it.
     */
    public void abandon() {
        synchronized (this) {
            machine.stop();
            mirror();
            cancelTimers();
        }
    }

    /** The lease is this session's and held (started, not stopped, not fenced). */
    public synchronized boolean holding() {
        return machine.phase() == LeaseRenewal.Phase.HOLDING;
    }

    public Self self() {
        return self;
    }

    /** A live lease of another session holds this node id. */
    public static final class HeldByAnotherSession extends IllegalStateException {
        final String session;
        final long expiresInMs;

        HeldByAnotherSession(String node, String session, long expiresInMs) {
            super("node id " + node + " is held by a live lease of session " + session + " (expires in " + expiresInMs
                    + " ms) and it keeps being renewed: another process runs with this CELLD_NODE");
            this.session = session;
            this.expiresInMs = expiresInMs;
        }
    }

    private CompletableFuture<Void> tryStart(int tombstoneWaits, int unclearRound) {
        synchronized (this) {
            if (machine.phase() == LeaseRenewal.Phase.STOPPED) {
                return CompletableFuture.failedFuture(new IllegalStateException("the start of lease " + key + " was abandoned"));
            }
        }
        return store.get(key).thenCompose(existing -> {
            long now = ticker.nowMs();
            OwnerLease found = decode(existing, true);
            return switch (LeaseStart.before(found, self.node(), self.session(), deadSessions, tombstoneWaits, now, liveness)) {
                case LeaseStart.Before.WaitForRetirement w -> waitForRetirement(tombstoneWaits, unclearRound);
                case LeaseStart.Before.HeldByAnotherSession h ->
                        CompletableFuture.failedFuture(new HeldByAnotherSession(self.node(), h.session(), h.liveForMs()));
                case LeaseStart.Before.Write w -> writeFirst(existing, now, tombstoneWaits, unclearRound);
            };
        });
    }

    private CompletableFuture<Void> writeFirst(Optional<StoredObject> existing, long now, int tombstoneWaits, int unclearRound) {
        LeaseRecord fresh = new LeaseRecord(self.node(), self.session(), advertise, protocol, now, machine.firstExpiryMs(now), load.get());
        long sentMono = mono.elapsedMs();
        CompletableFuture<WriteOutcome> w = existing.isPresent()
                ? store.putIfVersion(key, fresh.encode(), existing.get().version())
                : store.putIfAbsent(key, fresh.encode());
        return w.thenCompose(o -> {
            if (o instanceof WriteOutcome.Written ok && hold(fresh, ok.version(), sentMono)) {
                compareClocks(ok, now);
                LOG.atInfo().setMessage("lease.acquired").addKeyValue("expires_ms", fresh.expiresMs())
                        .addKeyValue("valid_ms", machine.validityMs()).addKeyValue("clock_skew_margin_ms", liveness.skewMs())
                        .addKeyValue("clock_offset_ms", ok.serverTimeMs().isPresent() ? lastClockOffsetMs : null).log();
                return CompletableFuture.<Void>completedFuture(null);
            }
            // Rejected, ambiguous (it may have landed), or answered too late to count: only the record can tell.
            return store.get(key).handle((read, e) -> read).thenCompose(read -> {
                OwnerLease back = read == null ? OwnerLease.MISSING : decode(read, false);
                String readVersion = read == null || read.isEmpty() ? null : read.get().version();
                String outcome = o.toString();
                LeaseStart.AfterUnclear next = read == null
                        ? LeaseStart.afterUnclearWrite(fresh, new OwnerLease.Malformed("read-back failed"), null, unclearRound, outcome)
                        : LeaseStart.afterUnclearWrite(fresh, back, readVersion, unclearRound, outcome);
                LOG.atWarn().setMessage("lease.first_write_unclear").addKeyValue("outcome", outcome)
                        .addKeyValue("round", unclearRound).addKeyValue("decision", next.getClass().getSimpleName()).log();
                return switch (next) {
                    case LeaseStart.AfterUnclear.Adopt a -> hold(fresh, a.version(), sentMono)
                            ? CompletableFuture.<Void>completedFuture(null)
                            : lookAgain(tombstoneWaits, unclearRound);
                    case LeaseStart.AfterUnclear.LookAgain l -> lookAgain(tombstoneWaits, unclearRound);
                    case LeaseStart.AfterUnclear.Fail f ->
                            CompletableFuture.<Void>failedFuture(new IllegalStateException("could not write lease " + key + ": " + f.reason()));
                };
            });
        });
    }

    /** The first lease counts when the machine accepts it (answered while still valid). */
    private boolean hold(LeaseRecord fresh, String newVersion, long sentMono) {
        synchronized (this) {
            if (!machine.started(sentMono, mono.elapsedMs(), fresh.expiresMs())) {
                return false;
            }
            record = fresh;
            version = newVersion;
            mirror();
            scheduleRenewal(machine.renewEveryMs());
            watchExpiry();
        }
        return true;
    }

    private CompletableFuture<Void> lookAgain(int tombstoneWaits, int unclearRound) {
        return later(LeaseStart.lookAgainInMs(ttlMs, unclearRound), () -> tryStart(tombstoneWaits, unclearRound + 1));
    }

    /**
     * Dead-node GC is retiring an earlier process's lease: it wrote the tombstone and its plain delete
     * follows (object stores have no conditional delete). A lease written over the tombstone now
     * would be deleted by it: this process would then serve cells under a lease peers see as missing
     * until its first renewal fails. So wait for the record to go, a renewal period at a time; a
     * tombstone still there after {@value LeaseStart#TOMBSTONE_WAITS} periods was left by a GC that
     * crashed, and is overwritten.
     */
    private CompletableFuture<Void> waitForRetirement(int waits, int unclearRound) {
        LOG.atInfo().setMessage("lease.waiting_for_retirement").addKeyValue("waits", waits).log();
        return later(LeaseStart.retirementWaitMs(ttlMs), () -> tryStart(waits + 1, unclearRound));
    }

    private CompletableFuture<Void> later(long delayMs, Supplier<CompletableFuture<Void>> then) {
        CompletableFuture<Void> out = new CompletableFuture<>();
        scheduler.after(delayMs, () -> then.get().whenComplete((v, e) -> {
            if (e != null) {
                out.completeExceptionally(e);
            } else {
                out.complete(null);
            }
        }));
        return out;
    }

    /** The expiry this node last published (peers judge it with their clocks plus the margin). */
    public long publishedExpiryMs() {
        return publishedExpiryMs;
    }

    /**
     * True while this node holds its lease and the lease is valid on its monotonic clock; false
     * before the first lease landed, after a fence, and once a stop or lapse began.
     */
    public boolean canServe() {
        return mono.elapsedMs() < servingUntilMono;
    }

    /** Milliseconds of validity left on the monotonic clock (0 when not serving), for /state. */
    public long validForMs() {
        return Math.max(0, servingUntilMono - mono.elapsedMs());
    }

    /** The last measured disagreement with the bucket's clock (positive: ours is ahead), for /state. */
    public long clockOffsetMs() {
        return lastClockOffsetMs;
    }

    /** Stops renewing; with {@code delete}, removes the record so peers see this node gone at once. */
    public CompletableFuture<Void> stop(boolean delete) {
        boolean mayDelete;
        synchronized (this) {
            mayDelete = machine.stopAndMayDelete();
            mirror();
            cancelTimers();
        }
        if (!delete || !mayDelete) {
            return CompletableFuture.completedFuture(null);
        }
        return store.delete(key);
    }

    /**
     * Stops renewing and publishes the lease as expired now (a preserve stop): the next process of
     * this node may start at once, and peers may take cells over if asked before it is back. The one
     * write that lowers this session's published expiry: it gives the lease up.
     */
    public CompletableFuture<Void> lapse() {
        LeaseRecord lapsed;
        String expected;
        synchronized (this) {
            java.util.OptionalLong expiry = machine.lapse(ticker.nowMs());
            mirror();
            cancelTimers();
            if (expiry.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            lapsed = record.withExpiry(expiry.getAsLong());
            expected = version;
        }
        return store.putIfVersion(key, lapsed.encode(), expected).thenAccept(o -> { });
    }

    /** How long one renewal attempt may stay unanswered before another is sent beside it. */
    long attemptBudgetMs() {
        return machine.attemptBudgetMs();
    }

    private void renew() {
        Step step;
        LeaseRecord next = null;
        String expected = null;
        synchronized (this) {
            step = machine.attempt(mono.elapsedMs(), ticker.nowMs());
            if (step instanceof Step.Send send) {
                next = record.withExpiry(send.expiresMs()).withLoad(load.get());
                expected = version;
                watchSlowAttempt(send.round());
            }
            mirror();
        }
        if (!(step instanceof Step.Send send)) {
            apply(step);
            return;
        }
        long round = send.round();
        long sentMono = mono.elapsedMs();
        long sentWall = ticker.nowMs();
        LeaseRecord attempted = next;
        store.putIfVersion(key, attempted.encode(), expected).whenComplete((o, e) -> {
            if (e == null && o instanceof WriteOutcome.Rejected) {
                reconcileRejected(round);
                return;
            }
            Step r;
            synchronized (this) {
                long answered = mono.elapsedMs();
                if (e != null || o instanceof WriteOutcome.Ambiguous) {
                    r = machine.failed(round, answered, e != null ? Errors.rootMessage(e) : ((WriteOutcome.Ambiguous) o).reason());
                } else {
                    WriteOutcome.Written ok = (WriteOutcome.Written) o;
                    r = machine.written(round, sentMono, answered, attempted.expiresMs());
                    if (r instanceof Step.Adopted) {
                        record = attempted;
                        version = ok.version();
                    }
                }
                mirror();
            }
            if (r instanceof Step.Adopted && o instanceof WriteOutcome.Written ok) {
                compareClocks(ok, sentWall);
            }
            apply(r);
        });
    }

    /** An attempt still unanswered after the budget: send another beside it (the round is unchanged). */
    private void watchSlowAttempt(long round) {
        if (slowWatch != null) {
            slowWatch.cancel();
        }
        long sentAt = mono.elapsedMs();
        slowWatch = scheduler.after(attemptBudgetMs(), () -> {
            long left;
            synchronized (this) {
                if (!machine.shouldHedge(round)) {
                    return;
                }
                left = machine.msLeft(mono.elapsedMs());
            }
            LOG.atWarn().setMessage("lease.renewal_slow").addKeyValue("waited_ms", mono.elapsedMs() - sentAt)
                    .addKeyValue("ms_left", left).log();
            renew();
        });
    }

    /**
     * A rejected CAS: our own earlier (ambiguous) write may have landed; anything else is another
     * writer. {@link LeaseRenewal#rejectedThenRead} decides from the record read back. Found by the
     * fault proxy (AmbiguousOutcomesScenario): comparing expiries fenced a healthy node after a
     * single lost renewal answer, so a record of our session is adopted as it is.
     */
    private void reconcileRejected(long round) {
        store.get(key).whenComplete((o, e) -> {
            Step r;
            synchronized (this) {
                long answered = mono.elapsedMs();
                if (e != null) {
                    r = machine.failed(round, answered, Errors.rootMessage(e));
                } else {
                    OwnerLease found = decode(o, false);
                    r = machine.rejectedThenRead(round, found, self.node(), self.session(), answered);
                    if (r instanceof Step.Adopted && found instanceof OwnerLease.Present p) {
                        record = p.lease();
                        version = o.get().version();
                    }
                }
                mirror();
            }
            apply(r);
        });
    }

    private void apply(Step step) {
        switch (step) {
            case Step.Adopted a -> {
                synchronized (this) {
                    if (slowWatch != null) {
                        slowWatch.cancel();
                    }
                    scheduleRenewal(a.nextRenewalInMs());
                    watchExpiry();
                }
            }
            case Step.RetryIn retry -> {
                LOG.atWarn().setMessage("lease.renewal_retry").addKeyValue("retry_in_ms", retry.delayMs())
                        .addKeyValue("ms_left", validForMs()).log();
                synchronized (this) {
                    scheduleRenewal(retry.delayMs());
                }
            }
            case Step.FenceNow f -> fence(f.fence());
            case Step.Send s -> throw new IllegalStateException("a send is handled by renew()");
            case Step.Ignore i -> { }
        }
    }

    /** Guards against a renewal that never answers: when the validity runs out with nothing adopted, fence. */
    private void watchExpiry() {
        if (expiryWatch != null) {
            expiryWatch.cancel();
        }
        long delay = Math.max(0, machine.validUntilMono() - mono.elapsedMs());
        expiryWatch = scheduler.after(delay, () -> {
            Step s;
            synchronized (this) {
                s = machine.expiryCheck(mono.elapsedMs());
                mirror();
            }
            apply(s);
        });
    }

    private void scheduleRenewal(long delayMs) {
        if (machine.phase() != LeaseRenewal.Phase.HOLDING) {
            return;
        }
        if (nextRenewal != null) {
            nextRenewal.cancel();
        }
        nextRenewal = scheduler.after(delayMs, this::renew);
    }

    /** Compares this node's clock with the bucket's, from one lease write's answer. */
    private void compareClocks(WriteOutcome.Written ok, long sentWall) {
        if (ok.serverTimeMs().isEmpty()) {
            return;
        }
        long offset = ClockCheck.minOffsetMs(sentWall, ticker.nowMs(), ok.serverTimeMs().getAsLong());
        ClockCheck.Report report;
        synchronized (this) {
            lastClockOffsetMs = offset;
            report = clock.observe(offset, mono.elapsedMs());
        }
        switch (report) {
            case BEYOND_MARGIN -> {
                String direction = offset > 0 ? "ahead of" : "behind";
                System.err.println("CLOCK-SKEW: this node's clock is at least " + Math.abs(offset) + " ms " + direction
                        + " the bucket's (" + store.url() + "), beyond CELLD_CLOCK_SKEW_MS=" + liveness.skewMs()
                        + ": leases are judged wrongly past that margin; synchronise this host's clock (NTP, chrony)");
                LOG.atWarn().setMessage("clock.skew_beyond_margin").addKeyValue("offset_ms", offset)
                        .addKeyValue("margin_ms", liveness.skewMs()).addKeyValue("bucket", store.url())
                        .addKeyValue("fix", "synchronise this host's clock (NTP, chrony)").log();
            }
            case BACK_WITHIN -> LOG.atInfo().setMessage("clock.skew_within_margin").addKeyValue("offset_ms", offset)
                    .addKeyValue("margin_ms", liveness.skewMs()).log();
            case NONE -> { }
        }
    }

    private OwnerLease decode(Optional<StoredObject> o, boolean warnMalformed) {
        if (o.isEmpty()) {
            return OwnerLease.MISSING;
        }
        try {
            return new OwnerLease.Present(LeaseRecord.decode(o.get().bytes()));
        } catch (MalformedRecordException e) {
            if (warnMalformed) {
                LOG.atWarn().setMessage("lease.replacing_malformed").addKeyValue("error", e.getMessage()).log();
            }
            return new OwnerLease.Malformed(e.getMessage());
        }
    }

    /** Called under the lock after every machine step. */
    private void mirror() {
        servingUntilMono = machine.phase() == LeaseRenewal.Phase.HOLDING ? machine.validUntilMono() : Long.MIN_VALUE;
        publishedExpiryMs = machine.publishedExpiryMs();
    }

    private void fence(LeaseRenewal.Fence f) {
        synchronized (this) {
            mirror();
            cancelTimers();
        }
        LOG.atError().setMessage("lease.fenced").addKeyValue("kind", f.kind().name().toLowerCase(java.util.Locale.ROOT))
                .addKeyValue("cause", f.cause()).log();
        onFence.accept(f);
    }

    private void cancelTimers() {
        if (nextRenewal != null) {
            nextRenewal.cancel();
        }
        if (expiryWatch != null) {
            expiryWatch.cancel();
        }
        if (slowWatch != null) {
            slowWatch.cancel();
        }
    }
}
