package dev.cellgate.core.logic;

/**
 * Which lane a stateless request runs on (issue 29 item 1). A node runs its stateless Worker in a
 * few lanes, each an instance of the Worker on a serial executor of its own. A request goes to
 * its preferred lane (the one its event loop maps to) unless that lane is held: a turn in it has
 * run longer than {@code heldAfterNanos}, which a legitimate turn rarely does and a runaway always
 * does. Then the next lane that is not held takes it; when all are held, a new lane is opened if
 * the node allows more, else the request queues behind its preferred lane (its CPU budget ends
 * the runaway ahead of it). A request that went to a lane just before its turn became held (a
 * runaway is only seen as one after {@code heldAfterNanos}) does not wait behind it: the pool
 * looks at its lanes every {@code heldAfterNanos} and moves the requests queued in a held lane
 * that have not started to a lane chosen again by this rule.
 *
 * <p>Pure: the caller passes what the lanes reported and the time.
 */
public final class LaneChoice {
    /** The answer meaning: open a new lane and run the request there. */
    public static final int NEW_LANE = -1;

    private LaneChoice() {
    }

    /**
     * @param lanes            the lanes open now
     * @param turnStartedNanos per lane index, when its running turn started, or 0 when it runs none
     *                         (read lane by lane: a request's choice allocates nothing)
     * @param preferred        the request's preferred lane, any non-negative number (taken modulo the lane count)
     * @param maxLanes         the most lanes the node opens
     */
    public static int choose(int lanes, java.util.function.IntToLongFunction turnStartedNanos, int preferred, long nowNanos,
            long heldAfterNanos, int maxLanes) {
        int n = lanes;
        if (n == 0) {
            return NEW_LANE;
        }
        int first = Math.floorMod(preferred, n);
        for (int k = 0; k < n; k++) {
            int i = (first + k) % n;
            if (!held(turnStartedNanos.applyAsLong(i), nowNanos, heldAfterNanos)) {
                return i;
            }
        }
        return n < maxLanes ? NEW_LANE : first;
    }

    /** Whether a lane whose running turn started at {@code turnStartedNanos} (0: none runs) is held now. */
    public static boolean held(long turnStartedNanos, long nowNanos, long heldAfterNanos) {
        return turnStartedNanos != 0 && nowNanos - turnStartedNanos > heldAfterNanos;
    }
}
