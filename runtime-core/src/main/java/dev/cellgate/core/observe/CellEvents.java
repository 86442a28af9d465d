package dev.cellgate.core.observe;

import dev.cellgate.core.spi.js.CellIdentity;

/**
 * Watches the events cells run (a fetch, an RPC call): where the node's tracing opens and closes
 * the span of a Durable Object turn. Runtime-core knows no tracing library; the gateway plugs one
 * in. {@link #NONE} costs one virtual call per event.
 */
public interface CellEvents {
    /** The event's end: called once, with its failure or null. */
    interface Event {
        void end(Throwable error);
    }

    /**
     * An event starts for {@code cell}.
     *
     * @param requestId the request it serves (null: none known, e.g. an RPC call)
     * @param kind      {@code fetch} or {@code call}
     * @param warm      true when the cell was already resident and active here; false when this event
     *                  activates it (or waits for an activation in progress)
     */
    Event start(String requestId, CellIdentity cell, String kind, boolean warm);

    Event NO_EVENT = error -> { };
    CellEvents NONE = (requestId, cell, kind, warm) -> NO_EVENT;
}
