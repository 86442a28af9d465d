package dev.cellgate.core.logic;

import dev.cellgate.core.records.LeaseRecord;

/**
 * How a node judges ANOTHER process's lease with its own wall clock (SPEC §5, §20). Clocks of two
 * hosts disagree; a lease is proved dead only once the reader's clock has passed
 * {@code expires_ms + CELLD_CLOCK_SKEW_MS}. Every verdict on someone else's lease goes through
 * here: takeover decisions, dead-node GC, the waker lease, routing and placement. The lease's own
 * holder judges itself on its monotonic clock instead ({@link OwnLeaseClock}).
 */
public final class Liveness {
    /** The documented default of {@code CELLD_CLOCK_SKEW_MS} (SPEC §20). */
    public static final long DEFAULT_SKEW_MS = 2_000;

    private final long skewMs;
    private final boolean withoutMargin;

    private Liveness(long skewMs, boolean withoutMargin) {
        if (skewMs < 0) {
            throw new IllegalArgumentException("clock skew margin must not be negative, got " + skewMs);
        }
        this.skewMs = skewMs;
        this.withoutMargin = withoutMargin;
    }

    /** Verdicts with the margin {@code skewMs} ({@code CELLD_CLOCK_SKEW_MS}). */
    public static Liveness withSkew(long skewMs) {
        return new Liveness(skewMs, false);
    }

    /**
     * The margin a TTL gets when {@code CELLD_CLOCK_SKEW_MS} is not set: {@value #DEFAULT_SKEW_MS} ms,
     * or a quarter of the TTL when that is smaller (the margin must stay below TTL/3).
     */
    public static long defaultSkewMs(long ttlMs) {
        return Math.min(DEFAULT_SKEW_MS, ttlMs / 4);
    }

    /** The error for a margin that does not fit the TTL, or null when it does. */
    public static String skewProblem(long skewMs, long ttlMs) {
        if (skewMs < 0) {
            return "must not be negative";
        }
        if (3 * skewMs >= ttlMs) {
            return "must be below CELLD_TTL_MS/3 (CELLD_TTL_MS=" + ttlMs + "): a lease is renewed every TTL/3 and "
                    + "peers must not judge it dead between two renewals";
        }
        return null;
    }

    /**
     * BROKEN ON PURPOSE, for the simulator's "lease liveness without the skew margin" variant only:
     * verdicts at {@code expires_ms} itself and a holder's validity to the full TTL, as if all clocks
     * agreed. Production never calls this.
     */
    public static Liveness brokenWithoutMarginForTests(long skewMs) {
        return new Liveness(skewMs, true);
    }

    /** The configured margin (what the docs and the clock check quote). */
    public long skewMs() {
        return skewMs;
    }

    /** The margin the verdicts apply: the configured one, except in the broken test variant. */
    public long appliedMarginMs() {
        return withoutMargin ? 0 : skewMs;
    }

    /**
     * The lease may still be live at {@code nowMs} on the reader's clock: its expiry plus the margin
     * has not passed. A tombstone ({@code expires_ms: 0}) never is.
     */
    public boolean isLive(LeaseRecord lease, long nowMs) {
        return !lease.isTombstone() && lease.expiresMs() + appliedMarginMs() > nowMs;
    }

    /**
     * Whether the owner recorded as ({@code node}, {@code session}) is proven dead by what its
     * lease shows: missing, expired past the margin, or held by another session (the process
     * restarted). A malformed lease is not proof of anything.
     */
    public boolean ownerIsDead(String node, String session, OwnerLease lease, long nowMs) {
        return switch (lease) {
            case OwnerLease.Missing m -> true;
            case OwnerLease.Malformed m -> false;
            case OwnerLease.Present p -> !p.lease().node().equals(node)
                    ? false // a record under another name is malformed for our purpose: not proof
                    : !p.lease().session().equals(session) || !isLive(p.lease(), nowMs);
        };
    }

    @Override
    public String toString() {
        return withoutMargin ? "Liveness(BROKEN: no margin)" : "Liveness(skew " + skewMs + " ms)";
    }
}
