package dev.cellgate.core.logic;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * Where a cell call goes when this node declines to run it (SPEC §6, §9, §10). Nothing ran here, so
 * the call may go elsewhere once: to the live owner the bucket names, or, when this node is full or
 * draining, to a live node with capacity ({@link Placement}). A draining node follows the owner a
 * peer already named when it refused an earlier try: a draining node reads no records, and without
 * the hint it would ask the same placement target again and again while another node owns the cell.
 */
public final class LocalRefusal {
    private LocalRefusal() {
    }

    /** Why this node did not run the call. */
    public enum Why {
        /** A live other node owns the cell. */
        OWNED_ELSEWHERE,
        /** This node is stopping: its cells are moving to peers. */
        DRAINING,
        /** This node takes no new cell (its resident limit or memory). */
        FULL
    }

    /**
     * @param owner     the live owner the bucket named ({@link Why#OWNED_ELSEWHERE} only)
     * @param ownerHint the owner a peer named when it refused the previous try, or null
     * @param placement this node's placement target, asked only when needed (null: no node has capacity)
     * @return the node to forward to; empty when there is none
     */
    public static Optional<String> target(Why why, String owner, String ownerHint, Supplier<String> placement) {
        return Optional.ofNullable(switch (why) {
            case OWNED_ELSEWHERE -> owner;
            case DRAINING -> ownerHint != null ? ownerHint : placement.get();
            case FULL -> placement.get();
        });
    }
}
