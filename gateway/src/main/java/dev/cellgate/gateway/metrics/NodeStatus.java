package dev.cellgate.gateway.metrics;

import dev.cellgate.core.spi.replication.ReplicaStats;

/** What the gauges read from the running node, at scrape time. */
public interface NodeStatus {
    int resident();

    int occupied();

    int activating();

    int restoring();

    int evicting();

    int releasing();

    int shedding();

    /** Resident cells that dropped their JavaScript instance and keep only their WebSockets. */
    int hibernated();

    /** Open hibernatable WebSockets held by the cells resident here. */
    int hibernatableSockets();

    /** WebSocket connections of this node on the network: public clients and peer tunnels. */
    int websockets();

    boolean draining();

    /** True while the node lost its lease and serves no cells (fenced-degraded, issue 29), until it rejoined. */
    default boolean degraded() {
        return false;
    }

    /** This node's published lease expiry (wall clock ms), or 0 before the first lease write. */
    long leaseExpiresMs();

    /** The deployment this node runs, or null before the first one is loaded. */
    String deployment();

    /** Replication totals since start (uploaded bytes, segments, snapshots) and bytes pending now. */
    ReplicaStats replication();
}
