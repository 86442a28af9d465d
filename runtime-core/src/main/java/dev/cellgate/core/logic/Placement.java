package dev.cellgate.core.logic;

import dev.cellgate.core.records.LeaseRecord;
import java.util.Collection;
import java.util.Optional;

/**
 * Where a cell goes when this node cannot take it (SPEC §9: a node under pressure stops acquiring
 * new cells; the request goes to a node with capacity, and leases carry load): a live node other
 * than this one whose lease shows capacity, the one with the fewest resident cells, ties by name so
 * that nodes reading the same leases agree. Used for a full node's new cells, a draining node's
 * calls and the alarms it hands over.
 */
public final class Placement {
    private Placement() {
    }

    /**
     * @param leases  the leases as last read (live or not)
     * @param self    this node, never picked
     * @param liveness a lease counts as live until its expiry plus the margin has passed on {@code nowMs}
     */
    public static Optional<String> pick(Collection<LeaseRecord> leases, String self, long nowMs, Liveness liveness) {
        LeaseRecord best = null;
        for (LeaseRecord l : leases) {
            if (l.node().equals(self) || !liveness.isLive(l, nowMs) || !l.load().hasCapacity()) {
                continue;
            }
            if (best == null || l.load().resident() < best.load().resident()
                    || l.load().resident() == best.load().resident() && l.node().compareTo(best.node()) < 0) {
                best = l;
            }
        }
        return Optional.ofNullable(best).map(LeaseRecord::node);
    }
}
