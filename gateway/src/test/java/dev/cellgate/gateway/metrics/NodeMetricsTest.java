package dev.cellgate.gateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.observe.RuntimeMetrics;
import dev.cellgate.core.spi.js.EngineInfo;
import dev.cellgate.core.spi.replication.ReplicaStats;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NodeMetricsTest {
    final NodeMetrics metrics = new NodeMetrics("n-test");

    /** A node status the test sets field by field. */
    static final class Status implements NodeStatus {
        volatile int resident = 4;
        volatile String deployment = "d-1";
        volatile ReplicaStats replication = new ReplicaStats(1000, 3, 20, 1);

        public int resident() { return resident; }
        public int occupied() { return 5; }
        public int activating() { return 1; }
        public int restoring() { return 0; }
        public int evicting() { return 2; }
        public int releasing() { return 2; }
        public int shedding() { return 1; }
        public int hibernated() { return 3; }
        public int hibernatableSockets() { return 70; }
        public int websockets() { return 41; }
        public boolean draining() { return false; }
        public long leaseExpiresMs() { return System.currentTimeMillis() + 9_000; }
        public String deployment() { return deployment; }
        public ReplicaStats replication() { return replication; }
    }

    @AfterEach
    void close() {
        metrics.close();
    }

    @Test
    void requestsAreCountedByKindAndOutcomeIntoFixedBuckets() {
        RequestMetrics r = metrics.requests();
        r.http(RequestMetrics.Kind.WORKER, 200, TimeUnit.MILLISECONDS.toNanos(3));
        r.http(RequestMetrics.Kind.WORKER, 404, TimeUnit.MILLISECONDS.toNanos(3));
        r.http(RequestMetrics.Kind.WORKER, 503, TimeUnit.MILLISECONDS.toNanos(40));
        r.http(RequestMetrics.Kind.PEER, 0, 1);
        metrics.runtime().cellCall(true, true, TimeUnit.MILLISECONDS.toNanos(20));
        metrics.runtime().cellCall(false, false, 1);
        PromText p = new PromText(metrics.scrape());
        String c = "cellgate_requests_seconds_count";
        assertThat(p.value(c, "kind", "worker", "outcome", "ok", "node", "n-test")).isEqualTo(1);
        assertThat(p.value(c, "kind", "worker", "outcome", "client_error")).isEqualTo(1);
        assertThat(p.value(c, "kind", "worker", "outcome", "error")).isEqualTo(1);
        assertThat(p.value(c, "kind", "peer", "outcome", "error")).as("no status: the connection failed").isEqualTo(1);
        assertThat(p.value(c, "kind", "cell_forwarded", "outcome", "ok")).isEqualTo(1);
        assertThat(p.value(c, "kind", "cell_local", "outcome", "error")).isEqualTo(1);
        assertThat(p.type("cellgate_requests_seconds")).isEqualTo("histogram");
        String b = "cellgate_requests_seconds_bucket";
        assertThat(p.value(b, "kind", "worker", "outcome", "error", "le", "0.025")).isEqualTo(0);
        assertThat(p.value(b, "kind", "worker", "outcome", "error", "le", "0.05")).isEqualTo(1);
        assertThat(p.find(b, "kind", "worker", "outcome", "ok")).as("14 fixed buckets and +Inf")
                .hasSize(Histograms.BUCKETS.length + 1);
    }

    @Test
    void cellEventsGaugesEngineModeDeploymentAndJvmAreExposed() {
        Status status = new Status();
        metrics.gauges(status, new EngineInfo("GraalJS", "interpreted", "no JVMCI"));
        RuntimeMetrics rt = metrics.runtime();
        rt.activation(RuntimeMetrics.Activation.ACTIVATED, 5_000_000);
        rt.activation(RuntimeMetrics.Activation.OWNED_ELSEWHERE, 1_000_000);
        rt.restore(true, 2_000_000, 4096);
        rt.release(true, 3_000_000);
        rt.release(false, 3_000_000);
        rt.eviction(RuntimeMetrics.Eviction.SHED);
        rt.outputGateWait(7_000_000);
        rt.commitDurable(true, 6_000_000);

        PromText p = new PromText(metrics.scrape());
        assertThat(p.value("cellgate_cell_activations_seconds_count", "outcome", "activated")).isEqualTo(1);
        assertThat(p.value("cellgate_cell_activations_seconds_count", "outcome", "owned_elsewhere")).isEqualTo(1);
        assertThat(p.value("cellgate_cell_activations_seconds_count", "outcome", "failed")).isEqualTo(0);
        assertThat(p.value("cellgate_cell_restores_seconds_count", "outcome", "ok")).isEqualTo(1);
        assertThat(p.value("cellgate_cell_restore_bytes_total")).isEqualTo(4096);
        assertThat(p.value("cellgate_cell_releases_seconds_count", "outcome", "released")).isEqualTo(1);
        assertThat(p.value("cellgate_cell_releases_seconds_count", "outcome", "failed")).isEqualTo(1);
        assertThat(p.value("cellgate_cell_evictions_total", "reason", "shed")).isEqualTo(1);
        assertThat(p.value("cellgate_cell_evictions_total", "reason", "idle")).isEqualTo(0);
        assertThat(p.value("cellgate_output_gate_wait_seconds_count")).isEqualTo(1);
        assertThat(p.value("cellgate_replication_commit_seconds_count", "outcome", "ok")).isEqualTo(1);
        assertThat(p.value("cellgate_cells_resident")).isEqualTo(4);
        assertThat(p.value("cellgate_cells_shedding")).isEqualTo(1);
        assertThat(p.value("cellgate_cells_hibernated")).isEqualTo(3);
        assertThat(p.value("cellgate_websockets_hibernatable")).isEqualTo(70);
        assertThat(p.value("cellgate_websockets_open")).isEqualTo(41);
        assertThat(p.value("cellgate_replication_uploaded_bytes_total")).isEqualTo(1000);
        assertThat(p.value("cellgate_replication_pending_bytes")).isEqualTo(20);
        assertThat(p.value("cellgate_lease_remaining_seconds")).isBetween(1.0, 9.0);
        assertThat(p.value("cellgate_engine_info", "mode", "interpreted", "name", "GraalJS")).isEqualTo(1);
        assertThat(p.value("cellgate_engine_optimizing")).isEqualTo(0);
        assertThat(p.value("cellgate_deployment_info", "deployment", "d-1")).isEqualTo(1);
        assertThat(p.find("jvm_memory_used_bytes")).isNotEmpty();
        assertThat(p.find("jvm_gc_pause_seconds_count").size() + p.find("jvm_gc_memory_allocated_bytes_total").size()).isPositive();
        assertThat(p.find("process_cpu_usage")).isNotEmpty();

        status.resident = 9;
        status.deployment = "d-2";
        status.replication = new ReplicaStats(1500, 4, 0, 1);
        PromText later = new PromText(metrics.scrape());
        assertThat(later.value("cellgate_cells_resident")).isEqualTo(9);
        assertThat(later.value("cellgate_deployment_info", "deployment", "d-2")).isEqualTo(1);
        assertThat(later.find("cellgate_deployment_info", "deployment", "d-1")).as("the old deployment is gone").isEmpty();
        assertThat(later.value("cellgate_replication_uploaded_bytes_total")).isEqualTo(1500);
    }
}
