package dev.cellgate.gateway.trace;

import dev.cellgate.core.cell.OwnedElsewhereException;
import dev.cellgate.core.observe.CellEvents;
import dev.cellgate.core.spi.js.CellIdentity;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/**
 * A span per cell event (a Durable Object turn, from delivery until its output gate opened), under
 * the span serving its request on this node. While it is open it is the parent of the cell's
 * bucket operations ({@link TracedBucketStore}).
 */
final class CellEventSpans implements CellEvents {
    static final AttributeKey<String> CELL_CLASS = AttributeKey.stringKey("cellgate.cell.class");
    static final AttributeKey<String> CELL_ID = AttributeKey.stringKey("cellgate.cell.id");
    static final AttributeKey<Boolean> ACTIVATION = AttributeKey.booleanKey("cellgate.cell.activation");
    static final AttributeKey<String> OWNER = AttributeKey.stringKey("cellgate.cell.owner");

    private final Tracer tracer;
    private final TraceRegistry registry;

    CellEventSpans(Tracer tracer, TraceRegistry registry) {
        this.tracer = tracer;
        this.registry = registry;
    }

    @Override
    public Event start(String requestId, CellIdentity cell, String kind, boolean warm) {
        Context parent = registry.request(requestId);
        Span span = tracer.spanBuilder("cell " + kind).setSpanKind(SpanKind.INTERNAL).setParent(parent == null ? Context.root() : parent)
                .setAttribute(NodeTracing.CELL_SCOPE, cell.scope()).setAttribute(CELL_CLASS, cell.className())
                .setAttribute(CELL_ID, cell.hex()).setAttribute(ACTIVATION, !warm)
                .setAttribute(NodeTracing.REQUEST_ID, requestId == null ? "" : requestId).startSpan();
        Runnable unregister = registry.inCell(cell.scope(), Context.root().with(span));
        return error -> {
            unregister.run();
            if (error instanceof OwnedElsewhereException o) {
                // Not a failure: this node learned the owner, and the router forwards the event there.
                span.setAttribute(OWNER, o.node());
            } else if (error != null) {
                span.recordException(error);
                span.setStatus(StatusCode.ERROR, String.valueOf(error.getMessage()));
            }
            span.end();
        };
    }
}
