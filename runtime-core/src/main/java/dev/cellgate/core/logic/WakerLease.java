package dev.cellgate.core.logic;

import dev.cellgate.core.records.WakerLeaseRecord;

/**
 * Whether this node may take or keep the advisory waker lease {@code wake/waker.json} (SPEC §11).
 * The lease lasts {@value #TTL_TICKS} waker ticks and its holder renews it every tick (TTL/3).
 */
public final class WakerLease {
    public static final int TTL_TICKS = 3;

    private WakerLease() {
    }

    public enum Action {
        /** No record: create it (create-only). */
        CREATE,
        /** Ours (this process): CAS a later expiry. */
        RENEW,
        /** Expired, or unreadable: CAS ours over it. */
        TAKE,
        /** Another holder's lease is unexpired: do not scan this tick. */
        LEAVE
    }

    /**
     * @param current   the record, or null when absent
     * @param liveness  the clock-skew margin (SPEC §20): a holder whose clock is behind ours keeps its lease
     * @param malformed true when a record exists but does not parse. Unlike a node lease, a malformed
     *                  waker lease is taken over: it guards no safety (two holders are harmless), and
     *                  respecting it forever would stop every alarm in the fleet.
     */
    public static Action decide(WakerLeaseRecord current, boolean malformed, String selfNode, String selfSession, long nowMs,
                                Liveness liveness) {
        return decide(current, malformed, selfNode, selfSession, nowMs, liveness, false);
    }

    /**
     * @param holderNodeDead the holder's node lease (same node and session) was seen dead, by
     *                       {@link LeaseDeaths}: its waker lease is taken at once rather than after
     *                       its own {@value #TTL_TICKS}-tick expiry (SPEC §18)
     */
    public static Action decide(WakerLeaseRecord current, boolean malformed, String selfNode, String selfSession, long nowMs,
                                Liveness liveness, boolean holderNodeDead) {
        if (malformed) {
            return Action.TAKE;
        }
        if (current == null) {
            return Action.CREATE;
        }
        if (current.node().equals(selfNode) && current.session().equals(selfSession)) {
            return Action.RENEW;
        }
        // Another holder's lease is judged like any lease of another process: dead only past the margin.
        if (holderNodeDead) {
            return Action.TAKE; // its node lease is dead (past expiry + margin): the waker lease would only block alarms for 3 ticks
        }
        return current.expiresMs() > 0 && current.expiresMs() + liveness.appliedMarginMs() > nowMs ? Action.LEAVE : Action.TAKE;
    }

    public static long ttlMs(long tickMs) {
        if (tickMs < 1) {
            throw new IllegalArgumentException("waker tick must be positive, got " + tickMs);
        }
        return Math.multiplyExact(tickMs, TTL_TICKS);
    }
}
