package dev.cellgate.gateway.metrics;

import dev.cellgate.core.observe.RuntimeMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/** What runtime-core reports (activations, restores, releases, gates, commits, stub calls), as Micrometer meters. */
final class CellMetrics implements RuntimeMetrics {
    private final RequestMetrics requests;
    private final Timer[] activations = new Timer[Activation.values().length];
    private final Timer restoreOk;
    private final Timer restoreFailed;
    private final Counter restoreBytes;
    private final Timer released;
    private final Timer releaseFailed;
    private final Counter[] evictions = new Counter[Eviction.values().length];
    private final Timer gateWait;
    private final Timer commitOk;
    private final Timer commitFailed;

    CellMetrics(MeterRegistry r, RequestMetrics requests) {
        this.requests = requests;
        for (Activation a : Activation.values()) {
            activations[a.ordinal()] = Histograms.timer(r, "cellgate.cell.activations",
                    "Cell activation attempts (acquire, restore or reuse, construct) by outcome", Tags.of("outcome", tag(a)));
        }
        restoreOk = Histograms.timer(r, "cellgate.cell.restores", "Restores of a cell database from the bucket",
                Tags.of("outcome", "ok"));
        restoreFailed = Histograms.timer(r, "cellgate.cell.restores", "Restores of a cell database from the bucket",
                Tags.of("outcome", "failed"));
        restoreBytes = Counter.builder("cellgate.cell.restore.bytes").baseUnit("bytes")
                .description("Bytes downloaded by restores").register(r);
        released = Histograms.timer(r, "cellgate.cell.releases", "Cell releases (final flush, ownership handed back)",
                Tags.of("outcome", "released"));
        releaseFailed = Histograms.timer(r, "cellgate.cell.releases", "Cell releases (final flush, ownership handed back)",
                Tags.of("outcome", "failed"));
        for (Eviction e : Eviction.values()) {
            evictions[e.ordinal()] = Counter.builder("cellgate.cell.evictions")
                    .description("Releases the sweeper started: idle cells, or cells shed under pressure")
                    .tag("reason", e.name().toLowerCase(java.util.Locale.ROOT)).register(r);
        }
        gateWait = Histograms.timer(r, "cellgate.output.gate.wait",
                "Time a cell result waited for the writes it follows to become durable (0 when none were pending)", Tags.empty());
        commitOk = Histograms.timer(r, "cellgate.replication.commit",
                "From a cell's local commit until the bucket holds it (the replication lag of each commit)", Tags.of("outcome", "ok"));
        commitFailed = Histograms.timer(r, "cellgate.replication.commit",
                "From a cell's local commit until the bucket holds it (the replication lag of each commit)", Tags.of("outcome", "failed"));
    }

    private static String tag(Activation a) {
        return a.name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public void activation(Activation outcome, long nanos) {
        activations[outcome.ordinal()].record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void restore(boolean ok, long nanos, long bytes) {
        (ok ? restoreOk : restoreFailed).record(nanos, TimeUnit.NANOSECONDS);
        if (bytes > 0) {
            restoreBytes.increment(bytes);
        }
    }

    @Override
    public void release(boolean ok, long nanos) {
        (ok ? released : releaseFailed).record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void eviction(Eviction why) {
        evictions[why.ordinal()].increment();
    }

    @Override
    public void outputGateWait(long nanos) {
        gateWait.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void commitDurable(boolean ok, long nanos) {
        (ok ? commitOk : commitFailed).record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void cellCall(boolean forwarded, boolean ok, long nanos) {
        requests.call(forwarded ? RequestMetrics.Kind.CELL_FORWARDED : RequestMetrics.Kind.CELL_LOCAL, ok, nanos);
    }
}
