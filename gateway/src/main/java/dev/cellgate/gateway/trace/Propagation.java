package dev.cellgate.gateway.trace;

import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.List;

/**
 * W3C Trace Context ({@code traceparent}) in and out: what a client or a peer sent becomes the
 * parent of this node's span, and the span's own context goes to the next hop. A malformed
 * header is ignored by the propagator (the span starts a new trace), as the W3C spec says.
 */
public final class Propagation {
    public static final String TRACEPARENT = "traceparent";
    private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();

    private Propagation() {
    }

    /** The context a {@code traceparent} value names (root when it is null or malformed). */
    public static Context parent(String traceparent) {
        if (traceparent == null || traceparent.isEmpty()) {
            return Context.root();
        }
        return W3C.extract(Context.root(), traceparent, ONE_HEADER);
    }

    /** The {@code traceparent} value of {@code ctx}'s span (null when it has no valid span). */
    public static String traceparent(Context ctx) {
        String[] out = new String[1];
        W3C.inject(ctx, out, (carrier, key, value) -> {
            if (TRACEPARENT.equals(key)) {
                carrier[0] = value;
            }
        });
        return out[0];
    }

    private static final TextMapGetter<String> ONE_HEADER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
            return List.of(TRACEPARENT);
        }

        @Override
        public String get(String carrier, String key) {
            return TRACEPARENT.equals(key) ? carrier : null;
        }
    };
}
