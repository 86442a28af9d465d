package dev.cellgate.gateway.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.observe.CellEvents;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.store.file.FileBucketStore;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeTracingTest {
    @TempDir
    Path dir;

    static boolean exporterThreadRuns() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.isAlive() && t.getName().contains("BatchSpanProcessor") && t.getName().contains("_WorkerThread"));
    }

    @Test
    void unsetCreatesNoExporterNoThreadAndWrapsNothing() throws Exception {
        assertThat(exporterThreadRuns()).as("no exporter thread before").isFalse();
        NodeTracing off = NodeTracing.of(Optional.empty(), "n1", "test");
        assertThat(off.enabled()).isFalse();
        assertThat(exporterThreadRuns()).as("no exporter thread when CELLD_OTEL_ENDPOINT is unset").isFalse();
        try (BucketStore store = new FileBucketStore("file://" + dir, dir, false)) {
            assertThat(off.bucket(store)).as("the bucket is not wrapped").isSameAs(store);
        }
        assertThat(off.cellEvents()).isSameAs(CellEvents.NONE);
        assertThat(off.serve("GET", "GET", "/", "r1", null)).isSameAs(OpenSpan.NONE);
        assertThat(off.forward("forward fetch", "r1", "n2", "C:00")).isSameAs(OpenSpan.NONE);
        assertThat(off.shutdown(Duration.ofSeconds(1))).isDone();

        // The same check sees the exporter of a node that has the setting (so the assertions above can fail).
        NodeTracing on = NodeTracing.of(Optional.of("http://127.0.0.1:9/"), "n1", "test");
        try {
            assertThat(on.enabled()).isTrue();
            assertThat(exporterThreadRuns()).as("the batch exporter's thread").isTrue();
        } finally {
            on.shutdown(Duration.ofSeconds(2)).join();
        }
    }

    @Test
    void spansNestRequestForwardCellEventAndTheCellsBucketOperations() throws Exception {
        InMemorySpanExporter exported = InMemorySpanExporter.create();
        NodeTracing t = NodeTracing.exporting(SimpleSpanProcessor.create(exported), "n1", "test");
        CellIdentity cell = new CellIdentity("Counter", "ab".repeat(32), "x");
        String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
        try (BucketStore store = t.bucket(new FileBucketStore("file://" + dir, dir, false))) {
            OpenSpan server = t.serve("POST", "POST", "/x", "r1", "00-" + trace + "-00f067aa0ba902b7-01");
            OpenSpan forward = t.forward("forward fetch", "r1", "n2", cell.scope());
            assertThat(forward.traceparent()).as("what the next hop gets").startsWith("00-" + trace + "-").endsWith("-01");
            forward.end(200, null);
            CellEvents.Event event = t.cellEvents().start("r1", cell, "fetch", false);
            store.put("cells/" + cell.scope() + "/wal/e0000000000000001/l0/a-b.seg", bytes("seg")).join();
            store.put("nodes/n1.json", bytes("lease")).join();
            event.end(null);
            store.put("cells/" + cell.scope() + "/wal/late.seg", bytes("after the event")).join();
            server.end(200, null);
        }
        // A bucket span ends in a callback of the store's future, which may run just after join() returned.
        long until = System.nanoTime() + 5_000_000_000L;
        while (exported.getFinishedSpanItems().size() < 4 && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        List<SpanData> spans = exported.getFinishedSpanItems();
        assertThat(spans).extracting(SpanData::getName).containsExactlyInAnyOrder("forward fetch", "bucket put", "cell fetch", "POST");
        SpanData server = named(spans, "POST");
        assertThat(server.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(server.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(server.getAttributes().get(AttributeKey.stringKey("cellgate.request_id"))).isEqualTo("r1");
        assertThat(server.getAttributes().get(AttributeKey.longKey("http.response.status_code"))).isEqualTo(200L);
        assertThat(server.getResource().getAttribute(AttributeKey.stringKey("service.instance.id"))).isEqualTo("n1");
        assertThat(server.getResource().getAttribute(AttributeKey.stringKey("service.name"))).isEqualTo("cellgate");
        assertThat(named(spans, "forward fetch").getParentSpanId()).isEqualTo(server.getSpanId());
        SpanData event = named(spans, "cell fetch");
        assertThat(event.getParentSpanId()).isEqualTo(server.getSpanId());
        assertThat(event.getAttributes().get(AttributeKey.booleanKey("cellgate.cell.activation"))).isTrue();
        SpanData put = named(spans, "bucket put");
        assertThat(put.getParentSpanId()).isEqualTo(event.getSpanId());
        assertThat(put.getAttributes().get(AttributeKey.stringKey("cellgate.bucket.outcome"))).isEqualTo("written");
        assertThat(spans).allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(trace));
        assertThat(t.registry.open()).as("every span removed its own entry").isZero();
    }

    @Test
    void aMalformedTraceparentStartsANewTrace() {
        InMemorySpanExporter exported = InMemorySpanExporter.create();
        NodeTracing t = NodeTracing.exporting(SimpleSpanProcessor.create(exported), "n1", "test");
        t.serve("GET", "GET", "/", "r2", "00-not-a-trace-01").end(0, null);
        SpanData s = exported.getFinishedSpanItems().get(0);
        assertThat(s.getParentSpanContext().isValid()).isFalse();
        assertThat(s.getStatus().getStatusCode()).as("status 0: the exchange broke off")
                .isEqualTo(io.opentelemetry.api.trace.StatusCode.ERROR);
    }

    @Test
    void onlyCellKeysNameAScope() {
        assertThat(TracedBucketStore.scopeOf("cells/Counter:ab/wal/e1/base.json")).isEqualTo("Counter:ab");
        assertThat(TracedBucketStore.scopeOf("cells/Counter:ab/own.json")).isEqualTo("Counter:ab");
        assertThat(TracedBucketStore.scopeOf("cells//own.json")).isNull();
        assertThat(TracedBucketStore.scopeOf("nodes/n1.json")).isNull();
        assertThat(TracedBucketStore.scopeOf("cells/Counter:ab")).isNull();
    }


    private static SpanData named(List<SpanData> spans, String name) {
        return spans.stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
