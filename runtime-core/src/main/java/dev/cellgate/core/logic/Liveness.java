package dev.cellgate.core.logic;

import dev.cellgate.core.records.LeaseRecord;

/** Lease liveness, judged with the reader's clock. */
public final class Liveness {
    private Liveness() {
    }

    /** The lease is unexpired at {@code nowMs} (a tombstone, {@code expires_ms: 0}, never is). */
    public static boolean isLive(LeaseRecord lease, long nowMs) {
        return lease.expiresMs() > nowMs;
    }

    /**
     * Whether the owner recorded as ({@code node}, {@code session}) is proven dead by what its
     * lease shows: missing, expired, or held by another session (the process restarted).
     * A malformed lease is not proof of anything.
     */
    public static boolean ownerIsDead(String node, String session, OwnerLease lease, long nowMs) {
        return switch (lease) {
            case OwnerLease.Missing m -> true;
            case OwnerLease.Malformed m -> false;
            case OwnerLease.Present p -> !p.lease().node().equals(node)
                    ? false // a record under another name is malformed for our purpose: not proof
                    : !p.lease().session().equals(session) || !isLive(p.lease(), nowMs);
        };
    }
}
