package dev.cellgate.core.fleet;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.MalformedRecordException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.time.Scheduler;
import dev.cellgate.core.time.Ticker;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's lease {@code nodes/<node>.json} (SPEC §5): written at start, renewed by CAS on its
 * own version every TTL/3 with the current load. A renewal that fails transiently is retried while
 * the published expiry has not passed. A record replaced by another writer, or an expiry that
 * passed without a renewal, means this node lost its authority: it fences itself (the callback
 * stops cells and exits the process).
 *
 * <p>A renewal that does not answer within {@link #attemptBudgetMs()} is hedged: another attempt
 * goes out against the same version, while the first may still answer. Each renewal period is a
 * round; the first answer of the current round that settles it (written, or reconciled after a
 * rejection) wins and later answers of that round are ignored. Without it one stuck request (a dead
 * pooled connection, an emulator stall) outlived the lease: the store's own attempt timeout is
 * 30 s, the lease 10 s, and a healthy node fenced itself (CrashS3IT in CI, exit 3).
 */
public final class LeaseKeeper {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);
    /** Renewal periods a starting process waits for a tombstoned lease of its node to be deleted. */
    static final int TOMBSTONE_WAITS = 9;

    private final BucketStore store;
    private final Self self;
    private final String advertise;
    private final int protocol;
    private final long ttlMs;
    private final Ticker ticker;
    private final Scheduler scheduler;
    private final Supplier<LeaseRecord.Load> load;
    private final Consumer<String> onFence;

    private LeaseRecord record;
    private String version;
    private volatile long publishedExpiryMs;
    private boolean stopped;
    private boolean fenced;
    private Scheduler.Cancellable nextRenewal;
    private Scheduler.Cancellable expiryWatch;
    private Scheduler.Cancellable slowWatch;
    /** Renewal rounds settled so far: an answer of an earlier round changes nothing. */
    private long round;

    public LeaseKeeper(BucketStore store, Self self, String advertise, int protocol, long ttlMs, Ticker ticker,
                       Scheduler scheduler, Supplier<LeaseRecord.Load> load, Consumer<String> onFence) {
        this.store = store;
        this.self = self;
        this.advertise = advertise;
        this.protocol = protocol;
        this.ttlMs = ttlMs;
        this.ticker = ticker;
        this.scheduler = scheduler;
        this.load = load;
        this.onFence = onFence;
    }

    /**
     * Writes the first lease. When a live lease of another session holds this node id (typically
     * this node's previous process, killed moments ago), waits for it to expire — up to three TTLs —
     * and fails if it is still being renewed: then another live process runs with this CELLD_NODE.
     */
    public CompletableFuture<Void> start() {
        return start(ticker.nowMs() + 3 * ttlMs);
    }

    private CompletableFuture<Void> start(long giveUpAtMs) {
        return tryStart(0).exceptionallyCompose(e -> {
            Throwable c = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
            if (c instanceof HeldByAnotherSession held && ticker.nowMs() < giveUpAtMs) {
                LOG.atWarn().setMessage("lease.waiting_for_previous_session").addKeyValue("session", held.session)
                        .addKeyValue("expires_in_ms", held.expiresInMs).log();
                CompletableFuture<Void> later = new CompletableFuture<>();
                scheduler.after(Math.min(Math.max(100, held.expiresInMs + 50), ttlMs), () -> start(giveUpAtMs).whenComplete((v, x) -> {
                    if (x != null) {
                        later.completeExceptionally(x);
                    } else {
                        later.complete(null);
                    }
                }));
                return later;
            }
            return CompletableFuture.failedFuture(c);
        });
    }

    /** A live lease of another session holds this node id. */
    static final class HeldByAnotherSession extends IllegalStateException {
        final String session;
        final long expiresInMs;

        HeldByAnotherSession(String node, String session, long expiresInMs) {
            super("node id " + node + " is held by a live lease of session " + session + " (expires in " + expiresInMs
                    + " ms) and it keeps being renewed: another process runs with this CELLD_NODE");
            this.session = session;
            this.expiresInMs = expiresInMs;
        }
    }

    private CompletableFuture<Void> tryStart(int tombstoneWaits) {
        String key = Keys.lease(self.node());
        return store.get(key).thenCompose(existing -> {
            long now = ticker.nowMs();
            LeaseRecord fresh = new LeaseRecord(self.node(), self.session(), advertise, protocol, now, now + ttlMs, load.get());
            if (existing.isPresent()) {
                try {
                    LeaseRecord old = LeaseRecord.decode(existing.get().bytes());
                    if (old.isTombstone() && old.node().equals(self.node()) && tombstoneWaits < TOMBSTONE_WAITS) {
                        return waitForRetirement(tombstoneWaits);
                    }
                    if (!old.session().equals(self.session()) && old.expiresMs() > now) {
                        return CompletableFuture.failedFuture(new HeldByAnotherSession(self.node(), old.session(), old.expiresMs() - now));
                    }
                } catch (MalformedRecordException e) {
                    LOG.atWarn().setMessage("lease.replacing_malformed").addKeyValue("error", e.getMessage()).log();
                }
            }
            CompletableFuture<WriteOutcome> w = existing.isPresent()
                    ? store.putIfVersion(key, fresh.encode(), existing.get().version())
                    : store.putIfAbsent(key, fresh.encode());
            return w.thenCompose(o -> {
                if (o instanceof WriteOutcome.Written ok) {
                    synchronized (this) {
                        record = fresh;
                        version = ok.version();
                        publishedExpiryMs = fresh.expiresMs();
                        scheduleRenewal(ttlMs / 3);
                        watchExpiry();
                    }
                    LOG.atInfo().setMessage("lease.acquired").addKeyValue("expires_ms", fresh.expiresMs()).log();
                    return CompletableFuture.<Void>completedFuture(null);
                }
                return CompletableFuture.failedFuture(new IllegalStateException("could not write lease " + key + ": " + o));
            });
        });
    }

    /**
     * Dead-node GC is retiring an earlier process's lease: it wrote the tombstone and its plain delete
     * follows (object stores have no conditional delete). A lease written over the tombstone now
     * would be deleted by it: this process would then serve cells under a lease peers see as missing
     * until its first renewal fails. So wait for the record to go, a renewal period at a time; a
     * tombstone still there after {@value #TOMBSTONE_WAITS} periods was left by a GC that crashed, and
     * is overwritten.
     */
    private CompletableFuture<Void> waitForRetirement(int waits) {
        LOG.atInfo().setMessage("lease.waiting_for_retirement").addKeyValue("waits", waits).log();
        CompletableFuture<Void> later = new CompletableFuture<>();
        scheduler.after(Math.max(1, ttlMs / 3), () -> tryStart(waits + 1).whenComplete((v, e) -> {
            if (e != null) {
                later.completeExceptionally(e);
            } else {
                later.complete(null);
            }
        }));
        return later;
    }

    /** The expiry this node last published; after it passes the node must not serve cells. */
    public long publishedExpiryMs() {
        return publishedExpiryMs;
    }

    /** True while the published lease is unexpired by this node's clock. */
    public boolean canServe() {
        return !fenced && ticker.nowMs() < publishedExpiryMs;
    }

    /** Stops renewing; with {@code delete}, removes the record so peers see this node gone at once. */
    public CompletableFuture<Void> stop(boolean delete) {
        synchronized (this) {
            stopped = true;
            cancelTimers();
        }
        if (!delete || fenced) {
            return CompletableFuture.completedFuture(null);
        }
        return store.delete(Keys.lease(self.node()));
    }

    /**
     * Stops renewing and publishes the lease as expired now (a preserve stop): the next process of
     * this node may start at once, and peers may take cells over if asked before it is back.
     */
    public CompletableFuture<Void> lapse() {
        LeaseRecord lapsed;
        String expected;
        synchronized (this) {
            stopped = true;
            cancelTimers();
            if (fenced || record == null) {
                return CompletableFuture.completedFuture(null);
            }
            lapsed = record.withExpiry(Math.max(1, ticker.nowMs()));
            expected = version;
        }
        return store.putIfVersion(Keys.lease(self.node()), lapsed.encode(), expected).thenAccept(o -> { });
    }

    /** How long one renewal attempt may stay unanswered before another is sent beside it. */
    long attemptBudgetMs() {
        return Math.max(1, ttlMs / 6);
    }

    private void renew() {
        LeaseRecord next;
        String expected;
        long myRound;
        long now = ticker.nowMs();
        synchronized (this) {
            if (stopped || fenced) {
                return;
            }
            expected = now < publishedExpiryMs ? version : null;
            next = record.withExpiry(now + ttlMs).withLoad(load.get());
            myRound = round;
            if (expected != null) {
                watchSlowAttempt(myRound);
            }
        }
        if (expected == null) {
            // Paused (SIGSTOP, a long GC) past the expiry, and this timer ran before the expiry watch.
            // Renewing now would bring back a lease peers already treat as dead: fence instead.
            fence("lease expired before it could be renewed (the process was paused or starved)");
            return;
        }
        store.putIfVersion(Keys.lease(self.node()), next.encode(), expected).whenComplete((o, e) -> {
            if (!current(myRound)) {
                return; // another attempt of this round settled it
            }
            if (e != null || o instanceof WriteOutcome.Ambiguous) {
                retryOrFence(myRound, e != null ? OwnershipStore.rootMessage(e) : ((WriteOutcome.Ambiguous) o).reason());
            } else if (o instanceof WriteOutcome.Written ok) {
                renewed(myRound, next, ok.version());
            } else {
                reconcileRejected(myRound);
            }
        });
    }

    /** An attempt still unanswered after the budget: send another beside it (the round is unchanged). */
    private void watchSlowAttempt(long myRound) {
        if (slowWatch != null) {
            slowWatch.cancel();
        }
        long sentAt = ticker.nowMs();
        slowWatch = scheduler.after(attemptBudgetMs(), () -> {
            if (!current(myRound)) {
                return;
            }
            LOG.atWarn().setMessage("lease.renewal_slow").addKeyValue("waited_ms", ticker.nowMs() - sentAt)
                    .addKeyValue("ms_left", publishedExpiryMs - ticker.nowMs()).log();
            renew();
        });
    }

    private synchronized boolean current(long myRound) {
        return round == myRound && !fenced && !stopped;
    }

    /**
     * A rejected CAS: our own earlier (ambiguous) write may have landed; anything else is another
     * writer. Only this process writes records with its session, so a record of our session that is
     * not a tombstone IS one of our renewals: typically the previous attempt, whose answer was lost
     * and whose success is exactly why this retry (still expecting the older version) was rejected.
     * Its expiry is not the one the retry attempted (each attempt computes a fresh expiry), so it
     * is adopted as it is (it is what peers see) unless our published expiry has passed meanwhile:
     * then it may have landed after the expiry and must not revive the lease. Found by the fault
     * proxy (AmbiguousOutcomesScenario): comparing expiries fenced a healthy node after a single lost
     * renewal answer.
     */
    private void reconcileRejected(long myRound) {
        store.get(Keys.lease(self.node())).whenComplete((o, e) -> {
            if (!current(myRound)) {
                return;
            }
            if (e != null) {
                retryOrFence(myRound, OwnershipStore.rootMessage(e));
                return;
            }
            if (o.isEmpty()) {
                fence("lease record " + Keys.lease(self.node()) + " was deleted by another writer");
                return;
            }
            LeaseRecord now;
            try {
                now = LeaseRecord.decode(o.get().bytes());
            } catch (MalformedRecordException ex) {
                fence("lease record was replaced by a malformed one: " + ex.getMessage());
                return;
            }
            if (now.isTombstone()) {
                fence("lease record was tombstoned by dead-node GC (our renewal came too late)");
            } else if (now.node().equals(self.node()) && now.session().equals(self.session())) {
                if (ticker.nowMs() >= publishedExpiryMs) {
                    // It may have landed after our published expiry: peers could have taken cells
                    // over in between, so it must not bring the lease back.
                    fence("lease expired while the outcome of a renewal was unknown");
                } else {
                    renewed(myRound, now, o.get().version());
                }
            } else {
                fence("lease record was replaced by another writer (session " + now.session() + ")");
            }
        });
    }

    private void renewed(long myRound, LeaseRecord next, String newVersion) {
        synchronized (this) {
            if (fenced || stopped || round != myRound) {
                return; // a late answer after fencing, or of a settled round, changes nothing
            }
            round++;
            if (slowWatch != null) {
                slowWatch.cancel();
            }
            record = next;
            version = newVersion;
            publishedExpiryMs = next.expiresMs();
            scheduleRenewal(ttlMs / 3);
            watchExpiry();
        }
    }

    private void retryOrFence(long myRound, String error) {
        long left = publishedExpiryMs - ticker.nowMs();
        if (left <= 0) {
            fence("lease expired without a successful renewal (last error: " + error + ")");
            return;
        }
        LOG.atWarn().setMessage("lease.renewal_retry").addKeyValue("error", error).addKeyValue("ms_left", left).log();
        synchronized (this) {
            if (round == myRound) {
                scheduleRenewal(Math.max(10, Math.min(left / 4, 1000)));
            }
        }
    }

    /** Guards against a renewal that never answers: at the expiry, if nothing renewed, fence. */
    private void watchExpiry() {
        if (expiryWatch != null) {
            expiryWatch.cancel();
        }
        long expiry = publishedExpiryMs;
        expiryWatch = scheduler.after(Math.max(0, expiry - ticker.nowMs()), () -> {
            if (publishedExpiryMs == expiry && ticker.nowMs() >= expiry) {
                fence("lease expired without a successful renewal");
            }
        });
    }

    private void scheduleRenewal(long delayMs) {
        if (stopped || fenced) {
            return;
        }
        if (nextRenewal != null) {
            nextRenewal.cancel();
        }
        nextRenewal = scheduler.after(delayMs, this::renew);
    }

    private void fence(String cause) {
        synchronized (this) {
            if (fenced || stopped) {
                return;
            }
            fenced = true;
            cancelTimers();
        }
        onFence.accept(cause);
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
