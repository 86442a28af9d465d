package dev.cellgate.core.fleet;

import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.logic.AcquireDecision;
import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.logic.Liveness;
import dev.cellgate.core.logic.OwnerLease;
import dev.cellgate.core.records.LeaseRecord;
import dev.cellgate.core.records.MalformedRecordException;
import dev.cellgate.core.records.OwnershipRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.time.Ticker;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ownership of cells in the bucket ({@code cells/<scope>/own.json}, SPEC §5): acquire by
 * create-only or compare-and-swap to epoch+1, confirm, release to {@code node:""} at the same
 * epoch. The decisions are {@link AcquireDecision}'s; this class only reads and writes.
 * Non-blocking: every step is a future callback, so a simulator can drive it on virtual time.
 */
public final class OwnershipStore {
    private static final Logger LOG = LoggerFactory.getLogger(OwnershipStore.class);
    /** Lost CAS races in a row before giving up with a retryable error. */
    static final int MAX_ATTEMPTS = 4;

    private final BucketStore store;
    /** The current session: replaced when the node rejoins after a fence (issue 29). */
    private volatile Self self;
    private final Ticker ticker;
    private final Liveness liveness;
    /** The marker PUTs still in flight, by cell: a release waits for its cell's before deleting it. */
    private final java.util.concurrent.ConcurrentHashMap<String, Marked> marks = new java.util.concurrent.ConcurrentHashMap<>();
    /** The safeguard a broken variant removes; null in production (only {@link #brokenForTests} sets it). */
    private final Broken broken;

    /**
     * BROKEN ON PURPOSE, for the simulator's broken variants only: each removes one safeguard of this
     * class, and the simulator's properties must catch it. No configuration reaches these.
     */
    public enum Broken {
        /** {@link #confirm} answers "still the owner" without asking the bucket. */
        CONFIRM_SKIPPED,
        /** A release writes {@code node:""} at epoch 1 instead of keeping the cell's epoch. */
        RELEASE_WITHOUT_EPOCH,
        /** A takeover never reads the owner's lease: every owner looks dead. */
        TAKEOVER_WITHOUT_LEASE_CHECK
    }

    /** With the default clock-skew margin (tests, tools); a node passes its configured one. */
    public OwnershipStore(BucketStore store, Self self, Ticker ticker) {
        this(store, self, ticker, Liveness.withSkew(Liveness.DEFAULT_SKEW_MS));
    }

    /** @param liveness how an owner's lease is judged before a takeover (the clock-skew margin, SPEC §20) */
    public OwnershipStore(BucketStore store, Self self, Ticker ticker, Liveness liveness) {
        this(store, self, ticker, liveness, null);
    }

    /** BROKEN ON PURPOSE: this class without one of its safeguards, for the simulator's broken variants. */
    public static OwnershipStore brokenForTests(BucketStore store, Self self, Ticker ticker, Liveness liveness, Broken broken) {
        return new OwnershipStore(store, self, ticker, liveness, java.util.Objects.requireNonNull(broken, "broken"));
    }

    private OwnershipStore(BucketStore store, Self self, Ticker ticker, Liveness liveness, Broken broken) {
        this.broken = broken;
        this.store = store;
        this.self = self;
        this.ticker = ticker;
        this.liveness = liveness;
    }

    public Self self() {
        return self;
    }

    /**
     * The node rejoined under a new session: acquisitions from now on are written under it. One that
     * began before keeps the session it started with (a fenced node's cells never become resident).
     */
    public void switchSession(Self next) {
        if (!next.node().equals(self.node())) {
            throw new IllegalArgumentException("a new session of node " + self.node() + ", not of " + next.node());
        }
        self = next;
    }

    public CompletableFuture<Acquisition> acquire(String scope) {
        return attempt(scope, 1, self);
    }

    private CompletableFuture<Acquisition> attempt(String scope, int n, Self me) {
        if (n > MAX_ATTEMPTS) {
            return CompletableFuture.completedFuture(new Acquisition.Unavailable(
                    "lost " + MAX_ATTEMPTS + " ownership races in a row for " + scope));
        }
        return readOwnership(scope).thenCompose(own -> {
            if (own.malformed != null) {
                return done(new Acquisition.Unavailable("ownership record of " + scope + " is malformed: " + own.malformed));
            }
            Optional<OwnershipRecord> rec = own.record == null ? Optional.empty() : Optional.of(own.record.value());
            // The lease is judged against the clock read BEFORE it was fetched: what the record shows
            // was true at some instant after that, whereas a clock read after the answer may be seconds
            // later (a pause, a slow callback) while the owner has renewed meanwhile.
            long judgedAt = ticker.nowMs();
            CompletableFuture<OwnerLease> lease = AcquireDecision.needsOwnerLease(rec, me.node())
                    && broken != Broken.TAKEOVER_WITHOUT_LEASE_CHECK ? readLease(rec.get().node()) : CompletableFuture.completedFuture(OwnerLease.MISSING);
            return lease.thenCompose(ownerLease -> {
                AcquireDecision d = AcquireDecision.decide(rec, ownerLease, me.node(), me.session(), judgedAt, liveness);
                return switch (d) {
                    case AcquireDecision.Forward f -> done(new Acquisition.OwnedElsewhere(f.ownerNode()));
                    case AcquireDecision.Unavailable u -> done(new Acquisition.Unavailable(u.reason()));
                    case AcquireDecision.Create c -> write(scope, 1, 0,
                            store.putIfAbsent(Keys.ownership(scope), mine(me, 1).encode()), n, me);
                    case AcquireDecision.TakeOver t -> write(scope, t.newEpoch(), t.newEpoch() - 1,
                            store.putIfVersion(Keys.ownership(scope), mine(me, t.newEpoch()).encode(), own.record.version()), n, me);
                };
            });
        });
    }

    private CompletableFuture<Acquisition> write(String scope, long epoch, long previous, CompletableFuture<WriteOutcome> w, int n,
                                                 Self me) {
        return w.thenCompose(outcome -> switch (outcome) {
            case WriteOutcome.Written ok -> {
                markHeld(scope, me);
                yield done(new Acquisition.Acquired(epoch, ok.version(), previous));
            }
            case WriteOutcome.Rejected r -> attempt(scope, n + 1, me); // someone moved first: look again
            case WriteOutcome.Ambiguous a -> readOwnership(scope).thenCompose(now -> {
                // The write may have landed: only the record can tell.
                if (now.record != null && now.record.value().equals(mine(me, epoch))) {
                    markHeld(scope, me);
                    return done(new Acquisition.Acquired(epoch, now.record.version(), previous));
                }
                return attempt(scope, n + 1, me);
            });
        }).exceptionally(e -> new Acquisition.Unavailable("bucket error acquiring " + scope + ": " + Errors.rootMessage(e)));
    }

    /**
     * Whether this node still owns {@code scope} at {@code epoch}: the output gate's check after
     * each replication upload. Fails (exceptionally) when the record cannot be read.
     *
     * <p>{@code version} is what the bucket answered to our acquiring write. While the record still
     * has that version it holds exactly what we wrote, so asking for the version alone (a HEAD on
     * S3) is proof enough; any other version (or a store that cannot tell) falls back to reading
     * the record and comparing it with ours.
     *
     * @param version the version our own acquiring write was given (never anyone else's)
     */
    public CompletableFuture<Boolean> confirm(String scope, long epoch, String version) {
        if (broken == Broken.CONFIRM_SKIPPED) {
            return done(true);
        }
        return store.version(Keys.ownership(scope)).thenCompose(now -> now.isPresent() && now.get().equals(version)
                ? done(true)
                : readOwnership(scope).thenApply(own -> own.record != null && own.record.value().equals(mine(epoch))));
    }

    /**
     * Releases a cell this node owns at {@code epoch}: CAS to {@code node:""} keeping the epoch.
     * Completes true when released (or already released by us), false when another node had
     * taken it over (nothing to release).
     */
    public CompletableFuture<Boolean> release(String scope, long epoch, String version) {
        return releaseRecord(scope, epoch, version).thenCompose(ok -> unmark(scope).thenApply(x -> ok));
    }

    private CompletableFuture<Boolean> releaseRecord(String scope, long epoch, String version) {
        byte[] released = OwnershipRecord.released(broken == Broken.RELEASE_WITHOUT_EPOCH ? 1 : epoch).encode();
        return store.putIfVersion(Keys.ownership(scope), released, version).thenCompose(outcome -> switch (outcome) {
            case WriteOutcome.Written ok -> done(true);
            case WriteOutcome.Rejected r -> readOwnership(scope).thenApply(now -> {
                boolean ours = now.record != null && now.record.value().equals(OwnershipRecord.released(epoch));
                if (!ours) {
                    LOG.atWarn().setMessage("cell.release_lost").addKeyValue("scope", scope).addKeyValue("epoch", epoch)
                            .addKeyValue("found", now.record == null ? "none" : now.record.value().toString()).log();
                }
                return ours;
            });
            case WriteOutcome.Ambiguous a -> readOwnership(scope).thenCompose(now -> {
                if (now.record == null) {
                    return done(false);
                }
                if (now.record.value().equals(OwnershipRecord.released(epoch))) {
                    return done(true);
                }
                if (now.record.value().equals(mine(epoch))) {
                    return releaseRecord(scope, epoch, now.record.version()); // did not land: try again
                }
                return done(false);
            });
        });
    }

    /**
     * The {@code node-cells/} marker lets dead-node GC find what a node held. Losing one is a
     * leak, not a safety problem, so a failed marker write is logged and the acquire stands; and
     * nothing reads a marker to decide anything, so the acquire does not wait for it either (one
     * bucket round trip less on every activation, issue 22). A release while the PUT is in flight
     * deletes that very key once the PUT has settled, so a late PUT cannot outlive the release.
     */
    private void markHeld(String scope, Self me) {
        String key = Keys.marker(me.node(), me.session(), scope);
        CompletableFuture<Void> written = store.put(key, new byte[0]).handle((o, e) -> {
            if (e != null || !(o instanceof WriteOutcome.Written)) {
                LOG.atWarn().setMessage("cell.marker_failed").addKeyValue("scope", scope)
                        .addKeyValue("error", e != null ? Errors.rootMessage(e) : o.toString()).log();
            }
            return null;
        });
        Marked m = new Marked(key, written);
        marks.put(scope, m);
        written.whenComplete((x, e) -> marks.remove(scope, m)); // settled: a release need not wait for it
    }

    private CompletableFuture<Void> unmark(String scope) {
        Marked m = marks.remove(scope);
        String key = m != null ? m.key() : Keys.marker(self.node(), self.session(), scope);
        CompletableFuture<Void> settled = m != null ? m.written() : done(null);
        return settled.thenCompose(x -> store.delete(key)).handle((o, e) -> {
            if (e != null) {
                LOG.atWarn().setMessage("cell.unmark_failed").addKeyValue("scope", scope).addKeyValue("error", Errors.rootMessage(e)).log();
            }
            return null;
        });
    }

    /** A marker this node wrote for a cell it holds: its key and when its PUT settled. */
    private record Marked(String key, CompletableFuture<Void> written) {
    }

    private OwnershipRecord mine(long epoch) {
        return mine(self, epoch);
    }

    private static OwnershipRecord mine(Self me, long epoch) {
        return new OwnershipRecord(me.node(), me.session(), epoch);
    }

    /** The ownership record; a malformed one is reported, never treated as absent. */
    public CompletableFuture<ReadOwnership> readOwnership(String scope) {
        return store.get(Keys.ownership(scope)).thenApply(o -> {
            if (o.isEmpty()) {
                return new ReadOwnership(null, null);
            }
            StoredObject so = o.get();
            try {
                return new ReadOwnership(new StoredRecord<>(OwnershipRecord.decode(so.bytes()), so.version()), null);
            } catch (MalformedRecordException e) {
                return new ReadOwnership(null, e.getMessage());
            }
        });
    }

    private CompletableFuture<OwnerLease> readLease(String node) {
        return store.get(Keys.lease(node)).thenApply(o -> {
            if (o.isEmpty()) {
                return OwnerLease.MISSING;
            }
            try {
                return new OwnerLease.Present(LeaseRecord.decode(o.get().bytes()));
            } catch (MalformedRecordException e) {
                return new OwnerLease.Malformed(e.getMessage());
            }
        });
    }

    /** {@code record} null with {@code malformed} null means absent. */
    public record ReadOwnership(StoredRecord<OwnershipRecord> record, String malformed) {
    }

    private static <T> CompletableFuture<T> done(T v) {
        return CompletableFuture.completedFuture(v);
    }
}
