package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.gateway.it.OtlpReceiver.Received;
import io.opentelemetry.proto.trace.v1.Span.SpanKind;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenTelemetry traces across two real nodes (CELLD_OTEL_ENDPOINT) into a small OTLP receiver:
 * a request entering node a for a Durable Object that node b owns is one trace — a's server span,
 * a's forward, b's peer server span, b's cell event, b's bucket operations — parented hop by
 * hop, with the request id the nodes log and answer.
 */
class TracingIT {
    static final String WORKER = """
            import { DurableObject } from "cloudflare:workers";
            export class Counter extends DurableObject {
            """ + Fleet.COUNTER_STATE + """
              async fetch(request) {
                console.log("counter fetch");
                return new Response(String(this.increment()));
              }
            }
            export default {
              async fetch(request, env) {
                const name = new URL(request.url).pathname.slice(1);
                const r = await env.COUNTER.getByName(name).fetch("http://do/inc", { method: "POST" });
                return new Response(await r.text(), { status: r.status });
              }
            };
            """;
    static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String CLIENT_SPAN = "00f067aa0ba902b7";

    @TempDir
    static Path dir;
    static OtlpReceiver otlp;
    static Fleet fleet;
    static NodeProcess a;
    static NodeProcess b;
    static NodeProcess c;

    @BeforeAll
    static void start() throws Exception {
        otlp = OtlpReceiver.start();
        fleet = Fleet.onFileBucket(dir, Map.of());
        try (BucketStore bucket = fleet.openBucket()) {
            TestDeployments.publish(bucket, "tracing", Map.of("index.js", WORKER), "index.js", Map.of("COUNTER", "Counter"), Map.of());
        }
        Map<String, String> traced = Map.of("CELLD_OTEL_ENDPOINT", otlp.endpoint());
        // c holds its spans for 10 minutes before a scheduled export: only the flush at its stop can send them.
        java.util.concurrent.ExecutorService own = java.util.concurrent.Executors.newSingleThreadExecutor();
        java.util.concurrent.Future<NodeProcess> cStart = own.submit(() -> NodeProcess.start("c", dir.resolve("c"),
                // interpreted (no JIT relaunch): it serves two requests, and its start competes less with a's and b's
                Map.of("CELLD_OTEL_ENDPOINT", otlp.endpoint(), "CELLD_BUCKET", fleet.bucketUrl, "CELLD_JIT", "0"),
                List.of("-Xmx1g", "-Dcellgate.test.otelExportDelayMs=600000")));
        own.shutdown();
        try {
            Map<String, NodeProcess> nodes = ParallelStart.start(dir, fleet.bucketUrl, Map.of("a", traced, "b", traced));
            a = nodes.get("a");
            b = nodes.get("b");
        } finally {
            c = cStart.get(300, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stop() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        if (c != null) {
            c.close();
        }
        if (fleet != null) {
            fleet.close();
        }
        if (otlp != null) {
            otlp.close();
        }
    }

    @Test
    void aForwardedRequestIsOneTraceFromTheEntryNodeToTheOwnersBucketWrites() throws Exception {
        String cell = "traced-forward";
        assertThat(b.get(b.publicUrl("/" + cell)).body()).as("b activates the cell and owns it").isEqualTo("1");
        String requestId = "trace-it-forward-1";
        HttpResponse<String> r = NodeProcess.HTTP.send(HttpRequest.newBuilder(URI.create(a.publicUrl("/" + cell)))
                .timeout(Duration.ofSeconds(30)).header("x-request-id", requestId)
                .header("traceparent", "00-" + TRACE_ID + "-" + CLIENT_SPAN + "-01")
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).as("b ran it: the second increment").isEqualTo("2");
        assertThat(r.headers().firstValue("x-request-id")).hasValue(requestId);

        List<Received> spans = otlp.await(all -> hop(traceOf(all, TRACE_ID)), Duration.ofSeconds(20));
        List<Received> trace = traceOf(spans, TRACE_ID);
        assertThat(otlp.refused()).as("every export was OTLP/HTTP protobuf to /v1/traces").isEmpty();

        Received aServer = one(trace, s -> s.node().equals("a") && s.kind() == SpanKind.SPAN_KIND_SERVER, "a's server span");
        assertThat(aServer.parentSpanId()).as("continues the client's traceparent").isEqualTo(CLIENT_SPAN);
        assertThat(aServer.service()).isEqualTo("cellgate");
        assertThat(aServer.attr("http.request.method")).isEqualTo("POST");
        assertThat(aServer.attr("url.path")).isEqualTo("/" + cell);
        assertThat(aServer.attr("http.response.status_code")).isEqualTo(200L);
        assertThat(aServer.attr("cellgate.request_id")).isEqualTo(requestId);

        Received forward = one(trace, s -> s.node().equals("a") && s.name().equals("forward fetch"), "a's forward");
        assertThat(forward.parentSpanId()).isEqualTo(aServer.spanId());
        assertThat(forward.attr("cellgate.peer.node")).isEqualTo("b");
        assertThat(forward.attr("http.response.status_code")).isEqualTo(200L);

        Received bServer = one(trace, s -> s.node().equals("b") && s.kind() == SpanKind.SPAN_KIND_SERVER, "b's peer server span");
        assertThat(bServer.parentSpanId()).as("b continues the traceparent a signed into the forward").isEqualTo(forward.spanId());
        assertThat(bServer.attr("cellgate.request_id")).isEqualTo(requestId);
        assertThat((String) bServer.attr("url.path")).startsWith("/peer/v1/fetch/Counter:");

        Received event = one(trace, s -> s.node().equals("b") && s.name().equals("cell fetch"), "b's cell event");
        assertThat(event.parentSpanId()).isEqualTo(bServer.spanId());
        assertThat(event.attr("cellgate.cell.class")).isEqualTo("Counter");
        assertThat(event.attr("cellgate.cell.scope")).isEqualTo(forward.attr("cellgate.cell.scope"));
        assertThat(event.attr("cellgate.cell.activation")).as("b's cell was warm").isEqualTo(false);
        assertThat(event.attr("cellgate.request_id")).isEqualTo(requestId);

        List<Received> bucket = trace.stream().filter(bucketOn("b")).toList();
        assertThat(bucket).as("b's bucket operations for the event").isNotEmpty()
                .allSatisfy(s -> assertThat(s.parentSpanId()).isEqualTo(event.spanId()));
        assertThat(bucket).as("the WAL segment the increment wrote").anySatisfy(s -> {
            assertThat((String) s.attr("cellgate.bucket.op")).startsWith("put");
            assertThat((String) s.attr("cellgate.bucket.key")).startsWith("cells/" + event.attr("cellgate.cell.scope") + "/wal/");
            assertThat(s.attr("cellgate.bucket.outcome")).isEqualTo("written");
        });
        assertThat(forward.kind()).isEqualTo(SpanKind.SPAN_KIND_CLIENT);
        // a may have looked for the cell locally first (it learns b owns it): that span, and its
        // bucket reads, sit under a's server span too; nothing else is in the trace.
        List<Received> aLookups = trace.stream().filter(s -> s.node().equals("a") && s.name().equals("cell fetch")).toList();
        aLookups.forEach(s -> {
            assertThat(s.parentSpanId()).isEqualTo(aServer.spanId());
            assertThat(s.attr("cellgate.cell.owner")).isEqualTo("b");
        });
        assertThat(trace).as("nothing else in the trace: %s", trace).allSatisfy(s -> assertThat(
                List.of(aServer, forward, bServer, event).contains(s) || bucket.contains(s) || aLookups.contains(s)
                        || (bucketOn("a").test(s) && aLookups.stream().anyMatch(l -> l.spanId().equals(s.parentSpanId())))).isTrue());

        // The request id b's log lines carry for this request (the Durable Object's console.log).
        List<JsonObject> logged = b.events("js.console").stream().filter(l -> "counter fetch".equals(l.getString("message"))).toList();
        assertThat(logged).extracting(l -> l.getString("request_id")).contains(requestId);
    }

    @Test
    void aRequestWithoutTraceparentStartsATraceUnderTheIdTheNodeGaveIt() throws Exception {
        String cell = "traced-fresh";
        assertThat(b.get(b.publicUrl("/" + cell)).body()).as("b owns the cell").isEqualTo("1");
        HttpResponse<String> r = a.post(a.publicUrl("/" + cell), "");
        assertThat(r.body()).isEqualTo("2");
        String requestId = r.headers().firstValue("x-request-id").orElseThrow();

        Predicate<Received> entry = s -> s.node().equals("a") && s.kind() == SpanKind.SPAN_KIND_SERVER
                && requestId.equals(s.attr("cellgate.request_id"));
        List<Received> spans = otlp.await(all -> all.stream().filter(entry).findFirst()
                .map(e -> hop(traceOf(all, e.traceId()))).orElse(false), Duration.ofSeconds(20));
        Received aServer = one(spans, entry, "a's server span for " + requestId);
        assertThat(aServer.parentSpanId()).as("a root: no traceparent came").isEmpty();
        List<Received> trace = traceOf(spans, aServer.traceId());
        Received bServer = one(trace, s -> s.node().equals("b") && s.kind() == SpanKind.SPAN_KIND_SERVER, "b's peer server span");
        assertThat(bServer.attr("cellgate.request_id")).isEqualTo(requestId);
        assertThat(trace).anySatisfy(s -> assertThat(s.name()).isEqualTo("cell fetch"));

        // The activation request on b was its own trace, and its cell event says it activated.
        List<Received> activations = otlp.await(all -> all.stream().anyMatch(s -> s.node().equals("b") && s.name().equals("cell fetch")
                && Boolean.TRUE.equals(s.attr("cellgate.cell.activation"))), Duration.ofSeconds(10));
        assertThat(activations).anySatisfy(s -> {
            assertThat(s.node()).isEqualTo("b");
            assertThat(s.attr("cellgate.cell.activation")).isEqualTo(true);
        });
    }

    @Test
    void spansStillBufferedAtAGracefulStopAreSentBeforeTheNodeExits() throws Exception {
        // c sent its start-up span at once (a node flushes once when it listens): its exporter is warm, as
        // any serving node's is; the first send of a cold one can take seconds on a busy machine.
        assertThat(otlp.await(all -> all.stream().anyMatch(s -> s.node().equals("c") && s.name().equals("node start")),
                Duration.ofSeconds(20))).as("c's start-up span").anyMatch(s -> s.node().equals("c") && s.name().equals("node start"));
        assertThat(c.events("tracing.started")).singleElement().satisfies(e -> assertThat(e.getString("first_export")).isEqualTo("ok"));
        HttpResponse<String> r = c.post(c.publicUrl("/traced-stop"), "");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        String requestId = r.headers().firstValue("x-request-id").orElseThrow();
        Predicate<Received> last = s -> s.node().equals("c") && requestId.equals(s.attr("cellgate.request_id"));
        Thread.sleep(1500); // a's and b's batches go out every second; c's next would not for 10 minutes
        assertThat(otlp.spans()).as("c has not sent the last request's spans yet").noneMatch(last);
        long t0 = System.nanoTime();
        c.sigterm();
        assertThat(c.waitForExit(Duration.ofSeconds(60))).as("a graceful stop").isZero();
        List<Received> fromC = otlp.spans().stream().filter(last).toList();
        assertThat(fromC).as("the last request's spans, flushed at c's stop (it took %d ms)", (System.nanoTime() - t0) / 1_000_000)
                .anySatisfy(s -> assertThat(s.kind()).isEqualTo(SpanKind.SPAN_KIND_SERVER))
                .anySatisfy(s -> assertThat(s.name()).isEqualTo("cell fetch"));
        assertThat(c.events("tracing.stopped")).singleElement().satisfies(e -> assertThat(e.getString("flushed")).isEqualTo("yes"));
    }

    /**
     * Whether every span of a forwarded request has arrived: each node sends its own batches, every
     * second, so a's server span (it ends last) may come a batch after b's spans, and b's WAL write
     * a batch before or after its event's.
     */
    private static boolean hop(List<Received> trace) {
        return trace.stream().anyMatch(s -> s.node().equals("a") && s.kind() == SpanKind.SPAN_KIND_SERVER)
                && trace.stream().anyMatch(s -> s.node().equals("a") && s.name().equals("forward fetch"))
                && trace.stream().anyMatch(s -> s.node().equals("b") && s.kind() == SpanKind.SPAN_KIND_SERVER)
                && trace.stream().anyMatch(s -> s.node().equals("b") && s.name().equals("cell fetch"))
                && trace.stream().anyMatch(s -> bucketOn("b").test(s) && String.valueOf(s.attr("cellgate.bucket.key")).contains("/wal/"));
    }

    private static Predicate<Received> bucketOn(String node) {
        return s -> s.node().equals(node) && s.name().startsWith("bucket ");
    }

    private static List<Received> traceOf(List<Received> spans, String traceId) {
        return spans.stream().filter(s -> s.traceId().equals(traceId)).toList();
    }

    private static Received one(List<Received> spans, Predicate<Received> p, String what) {
        List<Received> found = spans.stream().filter(p).toList();
        assertThat(found).as("exactly one %s among %s", what, spans).hasSize(1);
        return found.get(0);
    }

}
