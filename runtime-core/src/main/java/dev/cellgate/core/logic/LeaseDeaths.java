package dev.cellgate.core.logic;

import dev.cellgate.core.records.LeaseRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which node leases died since the last look (SPEC §18: a crashed owner's alarms fire within TTL +
 * 1 s of their time). A lease is dead once its expiry plus the clock-skew margin has passed (SPEC
 * §20: never sooner), or it is a tombstone. Each (node, session) is reported once; this node's own
 * lease is never reported (its own fencing is {@link NodeAuthority}'s business, not the waker's).
 */
public final class LeaseDeaths {
    private LeaseDeaths() {
    }

    /** What one look found: the deaths to act on, and what to remember for the next look. */
    public record Look(List<LeaseRecord> died, Set<String> reported) {
    }

    /** The key a death is remembered under. */
    public static String key(String node, String session) {
        return node + "/" + session;
    }

    /**
     * @param known    every lease as last read (missing ones are gone from the bucket: nothing to wake)
     * @param reported what the previous look returned as {@link Look#reported}
     */
    public static Look look(Collection<LeaseRecord> known, Set<String> reported, String selfNode, long nowMs, Liveness liveness) {
        List<LeaseRecord> died = new ArrayList<>();
        Set<String> still = new HashSet<>();
        for (LeaseRecord l : known) {
            if (l.node().equals(selfNode) || liveness.isLive(l, nowMs)) {
                continue;
            }
            String k = key(l.node(), l.session());
            still.add(k); // remembered while the record stays, so it is reported once
            if (!reported.contains(k)) {
                died.add(l);
            }
        }
        return new Look(List.copyOf(died), Set.copyOf(still));
    }

    /**
     * How long until the next look (ms, at least 1): the regular refresh, or sooner, the first moment
     * a peer lease as last read can be judged dead (its expiry plus the margin). A crashed owner's
     * cells and alarms then wait one bucket read past that moment, not up to a whole refresh more
     * (SPEC §18: alarms within the lease TTL + 1 s after a crash). A live peer renews every TTL/3, so
     * a fresh read of it never brings the look forward: only a peer that stopped renewing does.
     */
    public static long nextLookInMs(Collection<LeaseRecord> known, String selfNode, long nowMs, long refreshMs, Liveness liveness) {
        long next = refreshMs;
        for (LeaseRecord l : known) {
            if (l.node().equals(selfNode) || !liveness.isLive(l, nowMs)) {
                continue; // ours, or already dead (reported by the look just made)
            }
            next = Math.min(next, l.expiresMs() + liveness.appliedMarginMs() - nowMs);
        }
        return Math.max(1, next);
    }
}
