package dev.cellgate.core.logic;

import dev.cellgate.core.records.LeaseRecord;

/**
 * The renewal machine of this node's OWN lease (SPEC §5, §20): when it may serve, what to publish,
 * which answer to adopt, when to hedge, retry or fence. Pure: {@code LeaseKeeper} does the I/O and
 * feeds this class what happened, with the monotonic time it happened at; one instance per process,
 * called under the keeper's lock.
 *
 * <p><b>Validity.</b> A node judges its own lease on its monotonic clock: it may serve until the
 * send time of the last renewal that landed + TTL − margin ({@code CELLD_CLOCK_SKEW_MS}). Peers
 * judge the published {@code expires_ms} (computed from the wall clock at that same send) only
 * after {@code expires_ms + margin} on their clocks, so the two points are 2 × margin apart and
 * the fleet tolerates wall clocks that disagree by up to that much. A wall clock stepped back
 * changes neither: the validity is monotonic, and the published expiry never moves backward for
 * this session (only an explicit lapse at a preserve stop lowers it).
 *
 * <p><b>Adopting an answer.</b> A renewal is sent only while the lease is valid, and its answer is
 * adopted only when it arrives while the lease is still valid: then it landed before this node
 * stopped serving, hence before any peer with a clock within the margin could have judged the lease
 * dead. An answer arriving later may have landed after a peer read the lease as dead: it fences.
 *
 * <p><b>Rounds.</b> Each renewal period is a round. An attempt still unanswered after the budget
 * is hedged (another one against the same version); the first answer that settles the round wins
 * and later answers of that round are ignored. A rejected CAS is reconciled by reading the record:
 * a record of our session is one of this round's attempts whose answer was lost; its validity counts
 * from the round's FIRST send (the earliest it can have been sent).
 *
 * <p><b>Fencing</b> is an explicit decision with a kind, so a later degraded mode (issue 29) can
 * treat a lapse (the bucket stalled) differently from a replacement (another writer).
 */
public final class LeaseRenewal {

    public enum Phase { STARTING, HOLDING, FENCED, STOPPED }

    /** Why authority was lost. */
    public enum FenceKind {
        /** No renewal landed while the lease was valid: a stalled bucket, a paused or starved process. */
        LAPSED,
        /** The record was deleted, tombstoned, replaced by another session, or made unreadable. */
        REPLACED
    }

    public record Fence(FenceKind kind, String cause) {
    }

    /** What the keeper does next. */
    public sealed interface Step {
        /** Send a renewal CAS for this round, publishing {@code expiresMs}. */
        record Send(long round, long expiresMs) implements Step {
        }

        /** The round settled: renew again in {@code nextRenewalInMs}. */
        record Adopted(long nextRenewalInMs) implements Step {
        }

        /** A transient failure: try again in {@code delayMs} (the round is unchanged). */
        record RetryIn(long delayMs) implements Step {
        }

        /** Authority is lost: stop cells, fail requests, log {@code SELF-FENCE:}. */
        record FenceNow(Fence fence) implements Step {
        }

        /** An answer of a settled round, or after a stop or fence: changes nothing. */
        record Ignore() implements Step {
        }
    }

    private static final Step IGNORE = new Step.Ignore();

    private final String leaseKey;
    private final long ttlMs;
    private final Liveness liveness;
    private Phase phase = Phase.STARTING;
    private long validUntilMono;
    private long publishedExpiryMs;
    private long round;
    /** Monotonic time of the current round's first send; -1 while none is out. */
    private long roundFirstSentMono = -1;

    public LeaseRenewal(String leaseKey, long ttlMs, Liveness liveness) {
        String problem = Liveness.skewProblem(liveness.skewMs(), ttlMs);
        if (problem != null) {
            throw new IllegalArgumentException("CELLD_CLOCK_SKEW_MS=" + liveness.skewMs() + " " + problem);
        }
        this.leaseKey = leaseKey;
        this.ttlMs = ttlMs;
        this.liveness = liveness;
    }

    /** How long a landed renewal lets this node serve, measured from its send: TTL − margin. */
    public long validityMs() {
        return ttlMs - liveness.appliedMarginMs();
    }

    public long renewEveryMs() {
        return ttlMs / 3;
    }

    /** How long one attempt may stay unanswered before another is sent beside it. */
    public long attemptBudgetMs() {
        return Math.max(1, ttlMs / 6);
    }

    public Phase phase() {
        return phase;
    }

    public long round() {
        return round;
    }

    public long publishedExpiryMs() {
        return publishedExpiryMs;
    }

    /** Monotonic instant at which this node stops serving unless a renewal lands first. */
    public long validUntilMono() {
        return validUntilMono;
    }

    /** The first lease is what a starting process publishes: its wall clock + TTL. */
    public long firstExpiryMs(long nowWallMs) {
        return nowWallMs + ttlMs;
    }

    /**
     * The first lease write landed. It counts only if its answer came while it was still valid;
     * otherwise the start must try again (false).
     */
    public boolean started(long sentMono, long answeredMono, long expiresMs) {
        if (phase != Phase.STARTING || answeredMono >= sentMono + validityMs()) {
            return false;
        }
        phase = Phase.HOLDING;
        validUntilMono = sentMono + validityMs();
        publishedExpiryMs = expiresMs;
        return true;
    }

    /** This node may serve cells at {@code nowMono}: it holds the lease and the validity has not run out. */
    public boolean canServe(long nowMono) {
        return phase == Phase.HOLDING && nowMono < validUntilMono;
    }

    /** Milliseconds of validity left (negative once it ran out). */
    public long msLeft(long nowMono) {
        return validUntilMono - nowMono;
    }

    /**
     * A renewal is due (the period elapsed, a retry, or a hedge beside a slow attempt). Sent only
     * while the lease is valid; the published expiry never moves backward for this session.
     */
    public Step attempt(long nowMono, long nowWallMs) {
        if (phase != Phase.HOLDING) {
            return IGNORE;
        }
        if (nowMono >= validUntilMono) {
            // Paused (SIGSTOP, a long GC) past the validity, and this timer ran before the expiry watch.
            // Renewing now would bring back a lease peers may already treat as dead.
            return fenceNow(FenceKind.LAPSED, "lease expired before it could be renewed (the process was paused or starved)");
        }
        if (roundFirstSentMono < 0) {
            roundFirstSentMono = nowMono;
        }
        return new Step.Send(round, Math.max(publishedExpiryMs, nowWallMs + ttlMs));
    }

    /** An attempt of {@code attemptRound}, sent at {@code sentMono}, was written. */
    public Step written(long attemptRound, long sentMono, long answeredMono, long expiresMs) {
        if (!current(attemptRound)) {
            return IGNORE;
        }
        if (answeredMono >= validUntilMono) {
            return fenceNow(FenceKind.LAPSED, "a renewal was answered only after the lease's validity ran out "
                    + "(it may have landed after peers judged the lease dead)");
        }
        return adopt(sentMono, expiresMs);
    }

    /**
     * An attempt of {@code attemptRound} was rejected and the record was read back: our own earlier
     * attempt may have landed; anything else means another writer.
     */
    public Step rejectedThenRead(long attemptRound, OwnerLease found, String selfNode, String selfSession, long answeredMono) {
        if (!current(attemptRound)) {
            return IGNORE;
        }
        return switch (found) {
            case OwnerLease.Missing m -> fenceNow(FenceKind.REPLACED, "lease record " + leaseKey + " was deleted by another writer");
            case OwnerLease.Malformed m -> fenceNow(FenceKind.REPLACED, "lease record was replaced by a malformed one: " + m.reason());
            case OwnerLease.Present p -> {
                LeaseRecord now = p.lease();
                if (now.isTombstone()) {
                    yield fenceNow(FenceKind.REPLACED, "lease record was tombstoned by dead-node GC (our renewal came too late)");
                }
                if (!now.node().equals(selfNode) || !now.session().equals(selfSession)) {
                    yield fenceNow(FenceKind.REPLACED, "lease record was replaced by another writer (session " + now.session() + ")");
                }
                if (answeredMono >= validUntilMono) {
                    // It may have landed after the validity ran out: peers could have taken cells over in
                    // between, so it must not bring the lease back.
                    yield fenceNow(FenceKind.LAPSED, "lease expired while the outcome of a renewal was unknown");
                }
                // Adopted as it is (it is what peers see), counted from the round's first send.
                yield adopt(roundFirstSentMono, now.expiresMs());
            }
        };
    }

    /** An attempt failed transiently (an exception, an ambiguous write, a failed read-back). */
    public Step failed(long attemptRound, long nowMono, String error) {
        if (!current(attemptRound)) {
            return IGNORE;
        }
        long left = validUntilMono - nowMono;
        if (left <= 0) {
            return fenceNow(FenceKind.LAPSED, "lease expired without a successful renewal (last error: " + error + ")");
        }
        return new Step.RetryIn(Math.max(10, Math.min(left / 4, 1000)));
    }

    /** An attempt of {@code attemptRound} has been out for the budget: hedge while the round is open. */
    public boolean shouldHedge(long attemptRound) {
        return current(attemptRound);
    }

    /** The expiry watch fired: fence if the validity ran out with nothing adopted. */
    public Step expiryCheck(long nowMono) {
        if (phase == Phase.HOLDING && nowMono >= validUntilMono) {
            return fenceNow(FenceKind.LAPSED, "lease expired without a successful renewal");
        }
        return IGNORE;
    }

    /** A stop (handoff or preserve): nothing is renewed, and the node does not serve any more. */
    public void stop() {
        if (phase != Phase.FENCED) {
            phase = Phase.STOPPED;
        }
    }

    /**
     * A handoff stop that deletes the record, so peers see this node gone at once: whether the delete
     * may go out. Not after a fence: the record may be another writer's by then.
     */
    public boolean stopAndMayDelete() {
        boolean fenced = phase == Phase.FENCED;
        stop();
        return !fenced;
    }

    /**
     * A preserve stop publishes the lease as expired now, so the next process of this node may start
     * at once (and peers may take cells over if asked before it is back): the one write that lowers
     * this session's published expiry. Empty when nothing may be written: after a fence (the record
     * may be another writer's) or when this session never held the lease.
     *
     * @return the {@code expires_ms} to publish (never 0, which is a tombstone)
     */
    public java.util.OptionalLong lapse(long nowWallMs) {
        boolean fenced = phase == Phase.FENCED;
        boolean held = publishedExpiryMs > 0;
        stop();
        return fenced || !held ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(Math.max(1, nowWallMs));
    }

    private boolean current(long attemptRound) {
        return phase == Phase.HOLDING && attemptRound == round;
    }

    private Step adopt(long sentMono, long expiresMs) {
        round++;
        roundFirstSentMono = -1;
        validUntilMono = Math.max(validUntilMono, sentMono + validityMs());
        publishedExpiryMs = Math.max(publishedExpiryMs, expiresMs);
        return new Step.Adopted(renewEveryMs());
    }

    private Step fenceNow(FenceKind kind, String cause) {
        phase = Phase.FENCED;
        return new Step.FenceNow(new Fence(kind, cause));
    }
}
