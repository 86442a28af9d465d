package dev.cellgate.core.logic;

import dev.cellgate.core.records.OwnershipRecord;
import java.util.Optional;

/**
 * What a node does to run a cell, given the ownership record it read (SPEC §5). Every
 * activation bumps the epoch, also when the same node re-activates: one writer per epoch.
 */
public sealed interface AcquireDecision {

    /** No record: create it at epoch 1 (create-only). */
    record Create() implements AcquireDecision {
    }

    /** Released, or the owner is this node's earlier process, or a dead node: CAS to {@code newEpoch}. */
    record TakeOver(long newEpoch, String reason) implements AcquireDecision {
    }

    /** A live other node owns it: send the call there. */
    record Forward(String ownerNode) implements AcquireDecision {
    }

    /** Cannot decide safely now (owner's lease malformed): a retryable error, never a takeover. */
    record Unavailable(String reason) implements AcquireDecision {
    }

    /**
     * @param own        the ownership record, empty when absent
     * @param ownerLease the recorded owner's lease (only read when another node is recorded)
     * @param liveness   how another process's lease is judged (with the clock-skew margin)
     */
    static AcquireDecision decide(Optional<OwnershipRecord> own, OwnerLease ownerLease,
                                  String selfNode, String selfSession, long nowMs, Liveness liveness) {
        if (own.isEmpty()) {
            return new Create();
        }
        OwnershipRecord o = own.get();
        long next = o.epoch() + 1;
        if (o.isReleased()) {
            return new TakeOver(next, "released");
        }
        if (o.node().equals(selfNode)) {
            return new TakeOver(next, o.session().equals(selfSession) ? "re-activation" : "own earlier process");
        }
        if (ownerLease instanceof OwnerLease.Malformed m) {
            return new Unavailable("owner " + o.node() + " has a malformed lease: " + m.reason());
        }
        if (liveness.ownerIsDead(o.node(), o.session(), ownerLease, nowMs)) {
            return new TakeOver(next, "owner " + o.node() + " is dead");
        }
        return new Forward(o.node());
    }

    /** Whether deciding needs the recorded owner's lease (another node is recorded). */
    static boolean needsOwnerLease(Optional<OwnershipRecord> own, String selfNode) {
        return own.isPresent() && !own.get().isReleased() && !own.get().node().equals(selfNode);
    }
}
