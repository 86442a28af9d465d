package dev.cellgate.gateway.trace;

import dev.cellgate.core.observe.CellEvents;
import dev.cellgate.core.spi.bucket.BucketStore;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The node's tracing, in one place (CELLD_OTEL_ENDPOINT). Off (the default), nothing is created:
 * no SDK, no exporter, no thread; every span is {@link OpenSpan#NONE}, the bucket is not wrapped
 * and cells get {@link CellEvents#NONE}. On, spans go through a batch processor to the collector
 * by OTLP over HTTP/protobuf, as the resource {@code service.name=cellgate},
 * {@code service.instance.id=<node id>}, {@code service.version}.
 *
 * <p>Spans: a SERVER span per public request and per peer request, a CLIENT span per forward to
 * a peer (its {@code traceparent} rides in the signed peer request), an INTERNAL span per cell
 * event, a CLIENT span per bucket operation of a cell while one of its events is open.
 */
public final class NodeTracing {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(NodeTracing.class);
    static final String SCOPE_NAME = "dev.cellgate.gateway";
    /**
     * How long the batch processor waits before it sends what it holds (the SDK's default is 5 s).
     * Tests only: {@code -Dcellgate.test.otelExportDelayMs} sets it (TracingIT: 10 minutes, so that only the flush at a
     * stop can deliver a node's spans).
     */
    static final Duration EXPORT_DELAY = Duration.ofMillis(Long.getLong("cellgate.test.otelExportDelayMs", 1000));

    static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<String> PATH = AttributeKey.stringKey("url.path");
    static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("cellgate.request_id");
    static final AttributeKey<String> PEER_NODE = AttributeKey.stringKey("cellgate.peer.node");
    static final AttributeKey<String> CELL_SCOPE = AttributeKey.stringKey("cellgate.cell.scope");

    private static final NodeTracing OFF = new NodeTracing(null, null, null);

    private final SdkTracerProvider provider;
    private final Tracer tracer;
    private final String endpoint;
    final TraceRegistry registry = new TraceRegistry();

    private NodeTracing(SdkTracerProvider provider, Tracer tracer, String endpoint) {
        this.provider = provider;
        this.tracer = tracer;
        this.endpoint = endpoint;
    }

    /** Tracing off: the default. */
    public static NodeTracing off() {
        return OFF;
    }

    /** Off when {@code endpoint} is empty, else exporting to {@code <endpoint>/v1/traces}. */
    public static NodeTracing of(Optional<String> endpoint, String nodeId, String version) {
        if (endpoint.isEmpty()) {
            return OFF;
        }
        String base = endpoint.get().endsWith("/") ? endpoint.get().substring(0, endpoint.get().length() - 1) : endpoint.get();
        String url = base + "/v1/traces";
        SpanExporter exporter = OtlpHttpSpanExporter.builder().setEndpoint(url).setTimeout(Duration.ofSeconds(5)).build();
        return exporting(BatchSpanProcessor.builder(exporter).setScheduleDelay(EXPORT_DELAY).build(), nodeId, version, url);
    }

    /** Tracing through {@code processor} (tests hand in a simple processor over an in-memory exporter). */
    static NodeTracing exporting(SpanProcessor processor, String nodeId, String version) {
        return exporting(processor, nodeId, version, "(in-process)");
    }

    private static NodeTracing exporting(SpanProcessor processor, String nodeId, String version, String endpoint) {
        Resource resource = Resource.getDefault().toBuilder().put("service.name", "cellgate").put("service.instance.id", nodeId)
                .put("service.version", version).build();
        SdkTracerProvider p = SdkTracerProvider.builder().setResource(resource).addSpanProcessor(processor).build();
        return new NodeTracing(p, p.get(SCOPE_NAME), endpoint);
    }

    public boolean enabled() {
        return provider != null;
    }

    /** The bucket as cells use it: traced when tracing is on, else {@code store} itself. */
    public BucketStore bucket(BucketStore store) {
        return enabled() ? new TracedBucketStore(store, tracer, registry) : store;
    }

    /** What cells tell about their events: spans when tracing is on, else {@link CellEvents#NONE}. */
    public CellEvents cellEvents() {
        return enabled() ? new CellEventSpans(tracer, registry) : CellEvents.NONE;
    }

    /**
     * A SERVER span for a request this node serves: the child of {@code traceparent} when that names
     * a valid span, else the root of a new trace. The span is the parent of the request's forwards
     * and cell events on this node until it ends.
     */
    public OpenSpan serve(String name, String method, String path, String requestId, String traceparent) {
        if (!enabled()) {
            return OpenSpan.NONE;
        }
        Span span = tracer.spanBuilder(name).setSpanKind(SpanKind.SERVER).setParent(Propagation.parent(traceparent))
                .setAttribute(METHOD, method).setAttribute(PATH, path).setAttribute(REQUEST_ID, requestId == null ? "" : requestId)
                .startSpan();
        Context ctx = Context.root().with(span);
        Runnable unregister = registry.serving(requestId, ctx);
        return new Held(span, ctx, unregister);
    }

    /** A CLIENT span for a call forwarded to node {@code peer}, under the span serving {@code requestId} here. */
    public OpenSpan forward(String name, String requestId, String peer, String scope) {
        if (!enabled()) {
            return OpenSpan.NONE;
        }
        Context parent = registry.request(requestId);
        Span span = tracer.spanBuilder(name).setSpanKind(SpanKind.CLIENT).setParent(parent == null ? Context.root() : parent)
                .setAttribute(PEER_NODE, peer).setAttribute(CELL_SCOPE, scope).setAttribute(REQUEST_ID, requestId == null ? "" : requestId)
                .startSpan();
        return new Held(span, Context.root().with(span), () -> { });
    }

    /**
     * The node listens: records its start as a span ({@code node start}, from {@code startedMs}) and
     * sends it at once, so the operator learns now whether the collector answers
     * ({@code tracing.started}, {@code first_export}) and the exporter's first, slow send is behind
     * it before a stop has only its 2 s to flush.
     */
    public void started(long startedMs) {
        if (!enabled()) {
            return;
        }
        tracer.spanBuilder("node start").setSpanKind(SpanKind.INTERNAL).setStartTimestamp(startedMs, TimeUnit.MILLISECONDS)
                .startSpan().end();
        long t0 = System.nanoTime();
        CompletableResultCode r = provider.forceFlush();
        r.whenComplete(() -> LOG.atInfo().setMessage("tracing.started").addKeyValue("endpoint", endpoint)
                .addKeyValue("first_export", r.isSuccess() ? "ok" : "failed").addKeyValue("ms", (System.nanoTime() - t0) / 1_000_000)
                .log());
    }

    /**
     * Flushes what is buffered and stops the exporter, within {@code bound}: spans still unsent
     * then are dropped (a stop must not hang on a collector that does not answer).
     */
    public CompletableFuture<Void> shutdown(Duration bound) {
        if (!enabled()) {
            return CompletableFuture.completedFuture(null);
        }
        long t0 = System.nanoTime();
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        CompletableResultCode r = provider.shutdown();
        r.whenComplete(() -> done.complete(r.isSuccess()));
        return done.completeOnTimeout(null, bound.toMillis(), TimeUnit.MILLISECONDS).thenAccept(ok -> LOG.atInfo()
                .setMessage("tracing.stopped").addKeyValue("flushed", ok == null ? "timed_out" : ok ? "yes" : "export_failed")
                .addKeyValue("ms", (System.nanoTime() - t0) / 1_000_000).log());
    }

    /** An open span with its context; ending removes it from the registry. */
    private static final class Held implements OpenSpan {
        private final Span span;
        private final Context ctx;
        private final Runnable unregister;
        private final java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();

        Held(Span span, Context ctx, Runnable unregister) {
            this.span = span;
            this.ctx = ctx;
            this.unregister = unregister;
        }

        @Override
        public void end(int status, Throwable error) {
            if (ended.getAndSet(true)) {
                return; // a response's end and its connection's close both report
            }
            unregister.run();
            if (status > 0) {
                span.setAttribute(STATUS, (long) status);
            }
            if (error != null) {
                span.recordException(error);
                span.setStatus(StatusCode.ERROR, String.valueOf(error.getMessage()));
            } else if (status == 0 || status >= 500) {
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
        }

        @Override
        public String traceparent() {
            return Propagation.traceparent(ctx);
        }
    }
}
