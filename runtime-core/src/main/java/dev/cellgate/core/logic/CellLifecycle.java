package dev.cellgate.core.logic;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The life of one resident cell on its node, as phases and the moves between them. Pure: the cell
 * asks before each move, and a move this table does not list is a bug, refused by name instead of
 * leaving the cell half in one phase and half in another.
 *
 * <pre>
 *   STARTING --constructed--> SERVING <--wake / hibernate--> HIBERNATED
 *   SERVING --new code--> HIBERNATED (old instance closed) --constructed--> SERVING
 *   STARTING | SERVING | HIBERNATED --release--> RELEASING --closed--> GONE
 *   any but GONE --reset (durability failure, fence, failed start)--> GONE
 * </pre>
 *
 * A cell takes new events only while STARTING, SERVING or HIBERNATED (a hibernated or still
 * starting one constructs its Durable Object for the event); a RELEASING cell lets the events
 * that started before finish and refuses new ones, so callers resolve the cell again.
 */
public final class CellLifecycle {
    private CellLifecycle() {
    }

    public enum Phase {
        /** Owned and opened here; the Durable Object is being constructed. */
        STARTING,
        /** Serving events on a constructed Durable Object. */
        SERVING,
        /** The Durable Object was dropped; ownership, storage and WebSockets are kept. */
        HIBERNATED,
        /** Leaving this node: waiting for its events, then flushing. */
        RELEASING,
        /** Closed or reset: nothing runs in it again. */
        GONE;

        /** Whether a new event may start in a cell in this phase. */
        public boolean takesEvents() {
            return this == STARTING || this == SERVING || this == HIBERNATED;
        }
    }

    private static final Map<Phase, Set<Phase>> MOVES = Map.of(
            Phase.STARTING, EnumSet.of(Phase.SERVING, Phase.RELEASING, Phase.GONE),
            Phase.SERVING, EnumSet.of(Phase.HIBERNATED, Phase.RELEASING, Phase.GONE),
            Phase.HIBERNATED, EnumSet.of(Phase.SERVING, Phase.RELEASING, Phase.GONE),
            Phase.RELEASING, EnumSet.of(Phase.GONE),
            Phase.GONE, EnumSet.noneOf(Phase.class));

    public static boolean allowed(Phase from, Phase to) {
        return MOVES.get(from).contains(to);
    }

    /**
     * @throws IllegalStateException naming both phases when the move is not in the table
     */
    public static Phase move(Phase from, Phase to, String scope) {
        if (!allowed(from, to)) {
            throw new IllegalStateException("cell " + scope + " cannot go from " + from + " to " + to);
        }
        return to;
    }
}
