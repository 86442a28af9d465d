package dev.cellgate.core.cell;

import dev.cellgate.core.spi.js.StubCallException;

/**
 * The node lost its lease while the cell was resident or activating (issue 29): the cell stopped
 * and the call failed. Retryable: the node rejoins under a new session, or another node takes the
 * cell over; the write behind an unfinished result may or may not have landed.
 */
public final class NodeFencedException extends StubCallException {
    public NodeFencedException(String why) {
        super("Durable Object stopped: this node lost its lease (" + why + "); retry", true, null);
    }
}
