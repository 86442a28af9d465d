package dev.cellgate.core.logic;

import dev.cellgate.core.records.LeaseRecord;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;

/**
 * Where an unowned cell should be activated when this node cannot take it (SPEC §9): a live node
 * whose lease shows capacity. Among those, rendezvous (highest-random-weight) hashing on the
 * (scope, node) pair picks one. Every caller that sees the same leases picks the same node for a
 * cell, so two nodes placing one cell at once send it to one place instead of racing, and cells
 * spread evenly; removing a node only moves the cells that hashed to it.
 */
public final class Placement {
    private Placement() {
    }

    /** A lease as listed: the node its key names, and its record. */
    public record NodeLease(String keyNode, LeaseRecord lease) {
    }

    /** Whether {@code l} may receive a new cell: well-formed (key and body agree), live, with capacity. */
    public static boolean eligible(NodeLease l, long nowMs, Liveness liveness) {
        return l.keyNode() != null && l.keyNode().equals(l.lease().node())
                && liveness.isLive(l.lease(), nowMs) && l.lease().load().hasCapacity();
    }

    public static Optional<String> pick(String scope, Collection<NodeLease> leases, long nowMs, Liveness liveness) {
        return pick(scope, leases, nowMs, liveness, Set.of());
    }

    /** @param exclude nodes not to pick (e.g. one that just refused the cell) */
    public static Optional<String> pick(String scope, Collection<NodeLease> leases, long nowMs, Liveness liveness, Set<String> exclude) {
        String best = null;
        long bestScore = 0;
        for (NodeLease l : leases) {
            if (!eligible(l, nowMs, liveness) || exclude.contains(l.keyNode())) {
                continue;
            }
            long score = score(scope, l.keyNode());
            // Unsigned comparison; ties (astronomically rare) fall to the smaller name, for determinism.
            int cmp = best == null ? 1 : Long.compareUnsigned(score, bestScore);
            if (cmp > 0 || (cmp == 0 && l.keyNode().compareTo(best) < 0)) {
                best = l.keyNode();
                bestScore = score;
            }
        }
        return Optional.ofNullable(best);
    }

    /** A stable 64-bit mix of (scope, node): FNV-1a, then a SplitMix64 finaliser to spread the bits. */
    static long score(String scope, String node) {
        long h = 0xcbf29ce484222325L;
        for (byte b : (scope + "\u0000" + node).getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 30;
        h *= 0xbf58476d1ce4e5b9L;
        h ^= h >>> 27;
        h *= 0x94d049bb133111ebL;
        return h ^ (h >>> 31);
    }
}
