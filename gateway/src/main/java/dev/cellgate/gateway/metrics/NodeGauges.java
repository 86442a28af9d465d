package dev.cellgate.gateway.metrics;

import dev.cellgate.core.spi.js.EngineInfo;
import dev.cellgate.core.spi.replication.ReplicaStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Gauges of the node's state (the counters of {@code /state}), replication totals, and info
 * metrics for the JavaScript engine mode and the running deployment. Read at scrape time only:
 * {@link #refresh} takes one replication snapshot per scrape, which the replication meters share.
 */
final class NodeGauges {
    private final NodeStatus status;
    private final MultiGauge deployment;
    private volatile ReplicaStats replication = new ReplicaStats(0, 0, 0, 0);
    private String shownDeployment;

    NodeGauges(MeterRegistry r, NodeStatus status, EngineInfo engine) {
        this.status = status;
        gauge(r, "cellgate.cells.resident", "Cells resident on this node", s -> s.resident());
        gauge(r, "cellgate.cells.occupied", "Cells this node holds and is not releasing (activating or resident)", s -> s.occupied());
        gauge(r, "cellgate.cells.activating", "Activations in progress", s -> s.activating());
        gauge(r, "cellgate.cells.restoring", "Restores from the bucket in progress", s -> s.restoring());
        gauge(r, "cellgate.cells.evicting", "Sweeper releases in progress (idle or shed)", s -> s.evicting());
        gauge(r, "cellgate.cells.releasing", "Releases in progress (any reason)", s -> s.releasing());
        gauge(r, "cellgate.cells.shedding", "Releases in progress because of pressure", s -> s.shedding());
        gauge(r, "cellgate.cells.hibernated", "Resident cells hibernated: no JavaScript instance, WebSockets kept open",
                s -> s.hibernated());
        gauge(r, "cellgate.websockets.hibernatable", "Open hibernatable WebSockets of the cells resident here",
                s -> s.hibernatableSockets());
        gauge(r, "cellgate.websockets.open", "WebSocket connections on the network (public clients and peer tunnels)",
                s -> s.websockets());
        gauge(r, "cellgate.node.draining", "1 while the node drains for a graceful stop", s -> s.draining() ? 1 : 0);
        gauge(r, "cellgate.node.degraded", "1 while the node lost its lease and serves no cells (it keeps serving stateless "
                + "requests and rejoins when the bucket answers)", s -> s.degraded() ? 1 : 0);
        Gauge.builder("cellgate.lease.remaining", status,
                        s -> s.leaseExpiresMs() <= 0 ? 0 : Math.max(0, s.leaseExpiresMs() - System.currentTimeMillis()) / 1000.0)
                .description("Seconds until this node's published lease expires (it self-fences at 0)").baseUnit("seconds")
                .strongReference(true).register(r);
        FunctionCounter.builder("cellgate.replication.uploaded.bytes", this, g -> g.replication.bytesUploaded())
                .description("Bytes replication uploaded to the bucket").baseUnit("bytes").register(r);
        FunctionCounter.builder("cellgate.replication.segments", this, g -> g.replication.segmentsUploaded())
                .description("WAL segments replication uploaded").register(r);
        FunctionCounter.builder("cellgate.replication.snapshots", this, g -> g.replication.snapshots())
                .description("Snapshots replication took").register(r);
        Gauge.builder("cellgate.replication.pending.bytes", this, g -> g.replication.pendingBytes())
                .description("Committed bytes not yet durable in the bucket (the replication lag in bytes)").baseUnit("bytes")
                .strongReference(true).register(r);
        Gauge.builder("cellgate.engine.info", () -> 1).description("The JavaScript engine; mode is jit or interpreted")
                .tags(Tags.of("name", engine.name(), "mode", engine.mode())).strongReference(true).register(r);
        Gauge.builder("cellgate.engine.optimizing", () -> engine.optimizing() ? 1 : 0)
                .description("1 when the JavaScript engine runs with the optimizing JIT").strongReference(true).register(r);
        deployment = MultiGauge.builder("cellgate.deployment.info").description("The deployment this node runs").register(r);
    }

    private void gauge(MeterRegistry r, String name, String description, ToDoubleFunction<NodeStatus> f) {
        Gauge.builder(name, status, f).description(description).strongReference(true).register(r);
    }

    /** Before a scrape: one replication snapshot, and the deployment label if it changed. */
    synchronized void refresh() {
        replication = status.replication();
        String d = status.deployment();
        if (d != null && !d.equals(shownDeployment)) {
            deployment.register(List.of(MultiGauge.Row.of(Tags.of("deployment", d), 1)), true);
            shownDeployment = d;
        }
    }
}
