package dev.cellgate.gateway.metrics;

import dev.cellgate.core.observe.RuntimeMetrics;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.js.EngineInfo;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmCompilationMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The node's metrics: one Prometheus registry holding the JVM binders, request, bucket and cell
 * meters, and the node's gauges; {@link #scrape} renders the text format for {@code GET /metrics}.
 * Every series carries the label {@code node}.
 */
public final class NodeMetrics implements AutoCloseable {
    /** The Prometheus text exposition format, version 0.0.4. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final RequestMetrics requests;
    private final BucketMetrics bucket;
    private final CellMetrics cells;
    private volatile NodeGauges gauges;

    public NodeMetrics(String nodeId) {
        registry.config().commonTags("node", nodeId);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new JvmCompilationMetrics().bindTo(registry);
        new JvmInfoMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        requests = new RequestMetrics(registry);
        bucket = new BucketMetrics(registry);
        cells = new CellMetrics(registry, requests);
    }

    /** Wraps the node's bucket so every operation is counted. */
    public BucketStore instrument(BucketStore store) {
        return new InstrumentedBucketStore(store, bucket);
    }

    public RequestMetrics requests() {
        return requests;
    }

    /** What runtime-core reports into. */
    public RuntimeMetrics runtime() {
        return cells;
    }

    /** Registers the gauges once the parts they read exist. */
    public void gauges(NodeStatus status, EngineInfo engine) {
        gauges = new NodeGauges(registry, status, engine);
    }

    /** The Prometheus text format. Not on an event loop: binders read MXBeans and /proc. */
    public String scrape() {
        NodeGauges g = gauges;
        if (g != null) {
            g.refresh();
        }
        return registry.scrape();
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
