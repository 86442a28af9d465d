package dev.cellgate.gateway.trace;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A {@link BucketStore} that traces a cell's bucket operations — the WAL segment PUTs, the
 * ownership reads and conditional writes — as children of the cell's open event span. At this
 * seam every store plugin (file, S3, GCS) and every replicator is covered without knowing of
 * tracing. An operation of no cell, or of a cell with no event open (lease renewals, snapshots
 * between events), makes no span: it belongs to no request's trace.
 *
 * <p>Answers exactly what the store answered: the same future, untouched.
 */
final class TracedBucketStore implements BucketStore {
    static final AttributeKey<String> OP = AttributeKey.stringKey("cellgate.bucket.op");
    static final AttributeKey<String> KEY = AttributeKey.stringKey("cellgate.bucket.key");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("cellgate.bucket.outcome");
    static final AttributeKey<Long> BYTES = AttributeKey.longKey("cellgate.bucket.bytes");

    private final BucketStore store;
    private final Tracer tracer;
    private final TraceRegistry registry;

    TracedBucketStore(BucketStore store, Tracer tracer, TraceRegistry registry) {
        this.store = store;
        this.tracer = tracer;
        this.registry = registry;
    }

    /** The cell scope a key belongs to ({@code cells/<scope>/...}), or null. */
    static String scopeOf(String key) {
        if (key == null || !key.startsWith("cells/")) {
            return null;
        }
        int end = key.indexOf('/', "cells/".length());
        return end <= "cells/".length() ? null : key.substring("cells/".length(), end);
    }

    @Override
    public String url() {
        return store.url();
    }

    @Override
    public CompletableFuture<Optional<StoredObject>> get(String key) {
        return traced("get", key, -1, () -> store.get(key), o -> o.isPresent() ? "found" : "not_found");
    }

    @Override
    public CompletableFuture<Optional<String>> version(String key) {
        return traced("version", key, -1, () -> store.version(key), o -> o.isPresent() ? "found" : "not_found");
    }

    /** Not traced (operators' listings): the store's own, which may be cheaper than the default. */
    @Override
    public CompletableFuture<Optional<dev.cellgate.core.spi.bucket.ObjectInfo>> info(String key) {
        return store.info(key);
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
        return traced("put_if_absent", key, bytes.length, () -> store.putIfAbsent(key, bytes), TracedBucketStore::outcome);
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
        return traced("put_if_version", key, bytes.length, () -> store.putIfVersion(key, bytes, version), TracedBucketStore::outcome);
    }

    @Override
    public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
        return traced("put", key, bytes.length, () -> store.put(key, bytes), TracedBucketStore::outcome);
    }

    @Override
    public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
        return traced("list", prefix, -1, () -> store.list(prefix, cursor, limit), p -> "ok");
    }

    @Override
    public CompletableFuture<Void> delete(String key) {
        return traced("delete", key, -1, () -> store.delete(key), v -> "ok");
    }

    @Override
    public void close() {
        store.close();
    }

    private static String outcome(WriteOutcome w) {
        return switch (w) {
            case WriteOutcome.Written x -> "written";
            case WriteOutcome.Rejected x -> "rejected";
            case WriteOutcome.Ambiguous x -> "ambiguous";
        };
    }

    private <T> CompletableFuture<T> traced(String op, String key, long bytes, java.util.function.Supplier<CompletableFuture<T>> call,
                                            Function<T, String> outcome) {
        Context parent = registry.cell(scopeOf(key));
        if (parent == null) {
            return call.get();
        }
        var b = tracer.spanBuilder("bucket " + op).setSpanKind(SpanKind.CLIENT).setParent(parent).setAttribute(OP, op).setAttribute(KEY, key);
        if (bytes >= 0) {
            b.setAttribute(BYTES, bytes);
        }
        Span span = b.startSpan();
        CompletableFuture<T> f;
        try {
            f = call.get();
        } catch (RuntimeException e) {
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, String.valueOf(e.getMessage()));
            span.end();
            throw e;
        }
        f.whenComplete((v, e) -> {
            if (e != null) {
                span.recordException(e);
                span.setStatus(StatusCode.ERROR, String.valueOf(e.getMessage()));
            } else {
                span.setAttribute(OUTCOME, outcome.apply(v));
            }
            span.end();
        });
        return f;
    }
}
