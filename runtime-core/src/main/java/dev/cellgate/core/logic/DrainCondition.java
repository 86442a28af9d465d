package dev.cellgate.core.logic;

/**
 * When a stopping node may go on to its next step (SPEC §10). Three decisions, all polled by the
 * gateway's drain loop ({@code ShutdownDrain}, which only counts and acts):
 * <ol>
 *   <li>{@link Exit#drained}: the cells are done. Handoff waits for the release counter too, because a
 *       release leaves {@code occupied} before its ownership write lands: exiting on
 *       {@code occupied == 0} alone would cut that write off and leave peers waiting for the lease
 *       to expire. Preserve waits for activations and for the preserves (counted as evictions) in
 *       flight, not for the resident cells: they stay owned by this node.</li>
 *   <li>{@link #listenerMayClose}: peers have stopped routing here. A peer whose cached owner is
 *       this node keeps forwarding to it until an answer says "draining"; a call on the wire as the
 *       listener closes comes back "connection closed", which the caller must report as outcome
 *       unknown (RollingRestartIT saw that 500 when a node exited 15 ms after its last release).
 *       So the listener stays up, answering, until no peer request is in flight and none has come
 *       for {@link #PEER_QUIET_MS}, or for at most {@link #LINGER_MAX_MS}.</li>
 *   <li>{@link #warmPokesMayStop}: warm handoff ({@code CELLD_HANDOFF_WARM_MS}) asks peers to
 *       activate the released cells; a drained node waits for those answers for at most that long,
 *       so warming never stretches a stop by more than its budget.</li>
 * </ol>
 */
public final class DrainCondition {
    /** No peer request for this long: every peer that routed here has had its "draining" answer. */
    public static final long PEER_QUIET_MS = 500;
    /** The most a drained node waits for its peers to go quiet. */
    public static final long LINGER_MAX_MS = 2_000;

    private DrainCondition() {
    }

    public enum Mode {
        /** Release every cell so peers take over at once. */
        HANDOFF,
        /** Keep ownership and local data for a same-node restart; only finish state changes in progress. */
        PRESERVE
    }

    /**
     * A snapshot of the node as the drain loop polls it: the core's cell counters, the public
     * requests still being answered, and the release tasks that have not counted their outcome.
     */
    public record Counters(int occupied, int releasing, int activating, int evicting, int publicInFlight, int unfinishedReleases) {
        public Counters {
            if (occupied < 0 || releasing < 0 || activating < 0 || evicting < 0 || publicInFlight < 0 || unfinishedReleases < 0) {
                throw new IllegalArgumentException("drain counters cannot be negative: " + occupied + "/" + releasing
                        + "/" + activating + "/" + evicting + "/" + publicInFlight + "/" + unfinishedReleases);
            }
        }

        /** The cells' counters alone (no request or release task in flight). */
        public static Counters cells(int occupied, int releasing, int activating, int evicting) {
            return new Counters(occupied, releasing, activating, evicting, 0, 0);
        }
    }

    /**
     * When the cells are done (SPEC §10, step 3), as written there: Handoff when
     * {@code occupied == 0 && releasing == 0}; Preserve when {@code activating == 0 && evicting == 0}
     * (resident cells stay as they are: their ownership and local data are what the next process of
     * this node resumes). Either way no public request is still being answered (step 1: requests in
     * flight finish) and every release or preserve task the drain handed out has counted its outcome
     * (step 4 logs it).
     */
    public enum Exit {
        /** SPEC §10 as written: what production runs. */
        AS_SPECIFIED,
        /**
         * BROKEN ON PURPOSE, for tests only: the cells count as done once {@code occupied == 0}, in
         * either mode. A release leaves {@code occupied} before its ownership write lands, and a
         * preserve before its flush does: exiting then cuts those writes off. The drain tests must
         * catch it.
         */
        ON_OCCUPIED_ALONE;

        public boolean drained(Mode mode, Counters c) {
            boolean cells = this == ON_OCCUPIED_ALONE ? c.occupied() == 0 : switch (mode) {
                case HANDOFF -> c.occupied() == 0 && c.releasing() == 0;
                case PRESERVE -> c.activating() == 0 && c.evicting() == 0;
            };
            return cells && c.publicInFlight() == 0 && c.unfinishedReleases() == 0;
        }
    }

    /**
     * After {@link Exit#drained}: whether the internal listener may close now.
     *
     * @param peerInFlight peer requests being answered
     * @param peerQuietMs  time since the last peer request arrived or was answered
     * @param lingeredMs   time since the node drained
     */
    public static boolean listenerMayClose(int peerInFlight, long peerQuietMs, long lingeredMs) {
        if (peerInFlight < 0 || peerQuietMs < 0 || lingeredMs < 0) {
            throw new IllegalArgumentException("linger inputs cannot be negative: " + peerInFlight + "/" + peerQuietMs + "/" + lingeredMs);
        }
        return lingeredMs >= LINGER_MAX_MS || peerInFlight == 0 && peerQuietMs >= PEER_QUIET_MS;
    }

    /**
     * After {@link Exit#drained}: whether the warm-handoff pokes not answered yet may be left behind
     * (their cells are then activated by their next request, as without warm handoff).
     *
     * @param pending        pokes queued or awaiting the peer's answer
     * @param sinceDrainedMs time since the node drained
     * @param budgetMs       {@code CELLD_HANDOFF_WARM_MS}
     */
    public static boolean warmPokesMayStop(int pending, long sinceDrainedMs, long budgetMs) {
        if (pending < 0 || sinceDrainedMs < 0 || budgetMs < 0) {
            throw new IllegalArgumentException("warm-handoff inputs cannot be negative: " + pending + "/" + sinceDrainedMs + "/" + budgetMs);
        }
        return pending == 0 || sinceDrainedMs >= budgetMs;
    }
}
