package dev.cellgate.core.logic;

import dev.cellgate.core.records.LeaseRecord;

/**
 * What a starting process does with the lease record it finds under its node id (SPEC §5), and
 * after a first write whose outcome it cannot take as given. Pure; {@code LeaseKeeper} reads and
 * writes.
 */
public final class LeaseStart {
    /** Renewal periods a starting process waits for a tombstoned lease of its node to be deleted. */
    public static final int TOMBSTONE_WAITS = 9;
    /** Unclear first writes (rejected, ambiguous, answered too late) reconciled before the start fails. */
    public static final int WRITE_ROUNDS = 6;
    /**
     * TTLs a start waits for another session's live lease of its node to expire: a restart finds its
     * previous process's lease, which runs out within one TTL plus the margin; one still renewed after
     * three is another live process with this CELLD_NODE.
     */
    public static final int HELD_WAIT_TTLS = 3;

    private LeaseStart() {
    }

    public sealed interface Before {
        /** Write the first lease: create-only when absent, else CAS over what was read. */
        record Write() implements Before {
        }

        /** Dead-node GC is retiring an earlier process's lease: wait for its delete. */
        record WaitForRetirement() implements Before {
        }

        /** A lease of another session may still be live: wait for it (a restart) or fail (a duplicate id). */
        record HeldByAnotherSession(String session, long liveForMs) implements Before {
        }
    }

    /**
     * @param found          what reading {@code nodes/<node>.json} found
     * @param tombstoneWaits how many periods this start already waited for a tombstone
     * @param liveness       the other session's lease is judged like any other process's: live until
     *                       its expiry plus the margin has passed on this clock
     */
    public static Before before(OwnerLease found, String node, String session, int tombstoneWaits, long nowMs, Liveness liveness) {
        return before(found, node, session, java.util.Set.of(), tombstoneWaits, nowMs, liveness);
    }

    /**
     * A start that knows some earlier sessions of its node are dead: this process held them and
     * fenced itself (a rejoin after a lapse, issue 29), or gave up a start of them. Their record is
     * written over at once, live or not: nothing serves under them any more, and what peers see next
     * is the new session. Any other session's live lease is still waited for.
     *
     * @param deadSessions sessions of this node that this process held or tried and abandoned
     */
    public static Before before(OwnerLease found, String node, String session, java.util.Set<String> deadSessions,
                                int tombstoneWaits, long nowMs, Liveness liveness) {
        if (!(found instanceof OwnerLease.Present p)) {
            return new Before.Write(); // absent, or malformed (replaced, with a warning)
        }
        LeaseRecord old = p.lease();
        if (old.isTombstone() && old.node().equals(node) && tombstoneWaits < TOMBSTONE_WAITS) {
            // Also for a dead session of ours: GC's plain delete follows its tombstone and would
            // remove a lease written over it.
            return new Before.WaitForRetirement();
        }
        if (!old.session().equals(session) && !deadSessions.contains(old.session()) && liveness.isLive(old, nowMs)) {
            return new Before.HeldByAnotherSession(old.session(), old.expiresMs() + liveness.appliedMarginMs() - nowMs);
        }
        return new Before.Write();
    }

    /** The monotonic instant past which a start stops waiting for another session's lease ({@link #HELD_WAIT_TTLS}). */
    public static long giveUpAtMono(long startMono, long ttlMs) {
        return startMono + HELD_WAIT_TTLS * ttlMs;
    }

    /**
     * When to read the record again after {@link Before.HeldByAnotherSession}: just after the other
     * lease is judged dead (at least 100 ms from now, at most a TTL, so a lease that keeps being
     * renewed is seen again); empty once {@code giveUpAtMono} has passed and the start fails.
     */
    public static java.util.OptionalLong heldRetryInMs(long liveForMs, long ttlMs, long nowMono, long giveUpAtMono) {
        if (nowMono >= giveUpAtMono) {
            return java.util.OptionalLong.empty();
        }
        return java.util.OptionalLong.of(Math.min(Math.max(100, liveForMs + 50), ttlMs));
    }

    /** The pause before {@link AfterUnclear.LookAgain} round {@code round} (1, 2, …): longer each round, a twentieth of the TTL a step. */
    public static long lookAgainInMs(long ttlMs, int round) {
        return Math.max(10, ttlMs / 20) * round;
    }

    /** The pause of one {@link Before.WaitForRetirement}: a renewal period, in which GC's delete follows its tombstone. */
    public static long retirementWaitMs(long ttlMs) {
        return Math.max(1, ttlMs / 3);
    }

    public sealed interface AfterUnclear {
        /** The record read back is the one this process wrote: hold it under that version. */
        record Adopt(String version) implements AfterUnclear {
        }

        /** Look at the record again from the start (it changed, or our write did not land). */
        record LookAgain() implements AfterUnclear {
        }

        /** Too many rounds without a clear lease: the start fails with this message. */
        record Fail(String reason) implements AfterUnclear {
        }
    }

    /**
     * The first write was rejected or ambiguous (a timeout, a 5xx: it may have landed), and the
     * record was read back. Reconciled by what the record shows, never assumed (SPEC §5).
     *
     * @param written what this process tried to write
     * @param round   1 for the first unclear write of this start
     */
    public static AfterUnclear afterUnclearWrite(LeaseRecord written, OwnerLease readBack, String version, int round, String outcome) {
        if (readBack instanceof OwnerLease.Present p && p.lease().equals(written)) {
            return new AfterUnclear.Adopt(version);
        }
        if (round >= WRITE_ROUNDS) {
            return new AfterUnclear.Fail("the first lease write stayed unclear after " + WRITE_ROUNDS + " rounds (last: " + outcome + ")");
        }
        return new AfterUnclear.LookAgain();
    }
}
