package dev.cellgate.core.spi.js;

import dev.cellgate.core.logic.EgressPolicy;
import java.net.InetAddress;
import java.util.List;

/**
 * Where a Worker may connect (SPEC §19), as its host decides: the engine asks before every outbound
 * connection ({@code fetch}, and any later outbound WebSocket or {@code connect}), with the address it
 * resolved and is about to connect to, and refuses the connection when told why. The node's answer
 * knows its own listeners and the peers' advertised addresses ({@code fleet/NodeEgress}); may block
 * (the engine calls it off the event loop).
 */
@FunctionalInterface
public interface Egress {
    /**
     * @param host    the host as the URL names it
     * @param address the resolved address the connection will use
     * @return null when the connection may go ahead, else the reason (naming the destination and the setting)
     */
    String refusal(String host, InetAddress address, int port);

    /** The policy alone, with no listeners or peers to add: for tools and tests without a node. */
    static Egress of(EgressPolicy policy) {
        return (host, address, port) -> {
            EgressPolicy.Verdict v = policy.decide(new EgressPolicy.Destination(host, address, port), List.of(), List.of());
            return v.allowed() ? null : v.reason();
        };
    }
}
