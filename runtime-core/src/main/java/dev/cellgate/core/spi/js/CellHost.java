package dev.cellgate.core.spi.js;

/** What the host offers a Durable Object besides {@link InstanceHost}: its own storage. */
public interface CellHost extends InstanceHost {

    /** The cell's storage, synchronous, usable only on {@link #executor()}. */
    CellStorage storage();

    /** The cell's hibernatable WebSockets, kept by the host ({@code ctx.acceptWebSocket}). */
    default HibernatableSockets webSockets() {
        throw new UnsupportedOperationException("this host keeps no hibernatable WebSockets");
    }
}
