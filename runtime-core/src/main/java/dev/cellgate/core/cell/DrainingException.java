package dev.cellgate.core.cell;

import dev.cellgate.core.spi.js.StubCallException;

/**
 * This node is draining and takes no new cell work: a new activation here would re-acquire a
 * cell just released and undo the handoff. The router sends the call to the cell's next owner.
 */
public final class DrainingException extends StubCallException {
    public DrainingException() {
        super("node is draining", true, null);
    }
}
