package dev.cellgate.js.graal.host;

import dev.cellgate.js.graal.instance.JsEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A WebSocket's share of an instance's work: a message or close delivered to listeners, or the
 * socket's lifetime (held while it is open, so a Durable Object with a connected, non-hibernatable
 * socket is never idle). A listener that throws is logged; nobody waits for the result.
 */
final class SocketEvent extends JsEvent {
    private static final Logger LOG = LoggerFactory.getLogger(SocketEvent.class);

    private final boolean lifetime;

    SocketEvent(String label, boolean lifetime) {
        super(null, label);
        this.lifetime = lifetime;
    }

    @Override
    public void fail(Throwable error) {
        if (lifetime) {
            return; // the context closed with the socket open: the host closes the socket itself
        }
        LOG.atWarn().setMessage("websocket.listener_failed").addKeyValue("socket_event", label())
                .addKeyValue("error", String.valueOf(error)).log();
    }
}
