package dev.cellgate.core.spi.js;

/** What the host offers a Durable Object besides {@link InstanceHost}: its own storage. */
public interface CellHost extends InstanceHost {

    /** The cell's storage, synchronous, usable only on {@link #executor()}. */
    CellStorage storage();

    /** The cell's hibernatable WebSockets, kept by the host ({@code ctx.acceptWebSocket}). */
    default HibernatableSockets webSockets() {
        throw new UnsupportedOperationException("this host keeps no hibernatable WebSockets");
    }

    /**
     * {@code ctx.abort(reason)}: ends the object's session. The running turn's writes are thrown away
     * (as on workerd, everything the aborting event wrote since its last real I/O), and once the events
     * in flight have failed with {@code cause} (the engine fails them) the cell leaves this node's
     * memory, so the next event activates it afresh: a new instance on the stored state, where a pending
     * {@code onNextSessionRestoreBookmark} takes effect. Call on {@link #executor()}, inside the turn.
     */
    default void abort(Throwable cause) {
        throw new UnsupportedOperationException("this host cannot end a Durable Object's session (ctx.abort())");
    }
}
