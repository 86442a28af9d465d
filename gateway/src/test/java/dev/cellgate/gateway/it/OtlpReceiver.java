package dev.cellgate.gateway.it;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * A small OTLP collector for tests: {@code POST /v1/traces} with an OTLP/HTTP protobuf body
 * (ExportTraceServiceRequest), decoded with the opentelemetry-proto classes; every span is kept
 * with its resource's {@code service.instance.id}. Anything else is answered 404.
 */
final class OtlpReceiver implements AutoCloseable {
    /** One received span, ids as lowercase hex (a root span's parent is empty). */
    record Received(String node, String service, String traceId, String spanId, String parentSpanId, String name,
                    io.opentelemetry.proto.trace.v1.Span.SpanKind kind, Map<String, Object> attributes) {
        Object attr(String key) {
            return attributes.get(key);
        }
    }

    private final HttpServer server;
    private final List<Received> spans = new CopyOnWriteArrayList<>();
    private final List<String> refused = new CopyOnWriteArrayList<>();

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    static OtlpReceiver start() throws Exception {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        OtlpReceiver r = new OtlpReceiver(s);
        s.createContext("/", ex -> {
            try (ex; InputStream in = ex.getRequestBody()) {
                byte[] body = in.readAllBytes();
                String type = ex.getRequestHeaders().getFirst("content-type");
                if (!"POST".equals(ex.getRequestMethod()) || !"/v1/traces".equals(ex.getRequestURI().getPath())
                        || type == null || !type.startsWith("application/x-protobuf")) {
                    r.refused.add(ex.getRequestMethod() + " " + ex.getRequestURI() + " " + type);
                    ex.sendResponseHeaders(404, -1);
                    return;
                }
                r.take(ExportTraceServiceRequest.parseFrom(body));
                byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
                ex.getResponseHeaders().add("content-type", "application/x-protobuf");
                ex.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
                if (answer.length > 0) {
                    try (OutputStream out = ex.getResponseBody()) {
                        out.write(answer);
                    }
                }
            }
        });
        s.start();
        return r;
    }

    /** The base URL a node's CELLD_OTEL_ENDPOINT names (the exporter adds /v1/traces). */
    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Received> spans() {
        return List.copyOf(spans);
    }

    /** Requests that were not an OTLP/HTTP protobuf trace export. */
    List<String> refused() {
        return List.copyOf(refused);
    }

    /** Waits until the spans received so far satisfy {@code done}; returns them. */
    List<Received> await(Predicate<List<Received>> done, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            List<Received> now = spans();
            if (done.test(now)) {
                return now;
            }
            Thread.sleep(100);
        }
        return spans();
    }

    private void take(ExportTraceServiceRequest req) {
        HexFormat hex = HexFormat.of();
        for (ResourceSpans rs : req.getResourceSpansList()) {
            Map<String, Object> resource = attributes(rs.getResource());
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                for (io.opentelemetry.proto.trace.v1.Span s : ss.getSpansList()) {
                    Map<String, Object> attrs = new LinkedHashMap<>();
                    s.getAttributesList().forEach(kv -> attrs.put(kv.getKey(), value(kv.getValue())));
                    spans.add(new Received(String.valueOf(resource.get("service.instance.id")), String.valueOf(resource.get("service.name")),
                            hex.formatHex(s.getTraceId().toByteArray()), hex.formatHex(s.getSpanId().toByteArray()),
                            hex.formatHex(s.getParentSpanId().toByteArray()), s.getName(), s.getKind(), attrs));
                }
            }
        }
    }

    private static Map<String, Object> attributes(Resource r) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (KeyValue kv : r.getAttributesList()) {
            m.put(kv.getKey(), value(kv.getValue()));
        }
        return m;
    }

    private static Object value(AnyValue v) {
        return switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case BOOL_VALUE -> v.getBoolValue();
            case INT_VALUE -> v.getIntValue();
            case DOUBLE_VALUE -> v.getDoubleValue();
            default -> v.toString();
        };
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
