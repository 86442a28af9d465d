package dev.cellgate.core.logic;

/**
 * Dead-node GC's verdict on one {@code nodes/<node>.json} record (SPEC §11, seed 001). Deliberately
 * conservative: the only evidence is the record itself, read with the GC's clock and judged with
 * the clock-skew margin ({@link Liveness}, SPEC §20): a GC whose clock runs ahead must not retire
 * a lease its holder is renewing on time. No network probe, no guess. A wrong "dead" is still caught by the tombstone CAS that follows, but a wrong verdict
 * costs the node its markers, so the rule errs towards "alive".
 */
public final class DeadNodeVerdict {
    private DeadNodeVerdict() {
    }

    /**
     * @param keyNode the node named by the key ({@code nodes/<keyNode>.json}); null when the key is not a lease key
     * @param lease   what reading the record found
     * @return true only when the record's body names the same node as its key AND its expiry plus
     *         the margin is strictly before {@code nowMs}. A missing record has nothing to retire; a malformed one
     *         (or one naming another node) is never proof of death. A tombstone ({@code expires_ms: 0})
     *         is dead, so a tombstone left by a crash is retired by the next pass.
     */
    public static boolean nodeRecordIsDead(String keyNode, OwnerLease lease, long nowMs, Liveness liveness) {
        if (keyNode == null || keyNode.isEmpty()) {
            return false;
        }
        return switch (lease) {
            case OwnerLease.Missing m -> false;
            case OwnerLease.Malformed m -> false;
            case OwnerLease.Present p -> p.lease().node().equals(keyNode)
                    && (p.lease().isTombstone() || p.lease().expiresMs() + liveness.appliedMarginMs() < nowMs);
        };
    }
}
