package dev.cellgate.gateway.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code cellgate_bucket_requests_seconds{op, outcome}} and {@code cellgate_bucket_bytes_total{direction}}.
 * Every combination that can happen exists from the start (at zero), so a dashboard can graph
 * CAS rejections or ambiguous writes before the first one.
 */
public final class BucketMetrics {
    /** A bucket operation, named like the {@code BucketStore} method. */
    public enum Op {
        GET("get", List.of(Outcome.FOUND, Outcome.NOT_FOUND, Outcome.ERROR)),
        VERSION("version", List.of(Outcome.FOUND, Outcome.NOT_FOUND, Outcome.ERROR)),
        PUT("put", Outcome.WRITES),
        PUT_IF_ABSENT("putIfAbsent", Outcome.WRITES),
        PUT_IF_VERSION("putIfVersion", Outcome.WRITES),
        LIST("list", List.of(Outcome.OK, Outcome.ERROR)),
        DELETE("delete", List.of(Outcome.OK, Outcome.ERROR));

        final String tag;
        final List<Outcome> outcomes;

        Op(String tag, List<Outcome> outcomes) {
            this.tag = tag;
            this.outcomes = outcomes;
        }
    }

    /** How it ended. Writes: written, rejected (a failed precondition, e.g. a lost CAS), ambiguous, error. */
    public enum Outcome {
        FOUND("found"), NOT_FOUND("not_found"), OK("ok"),
        WRITTEN("written"), REJECTED("rejected"), AMBIGUOUS("ambiguous"),
        /** The future failed: a read or listing error, or a store that broke the three-valued contract. */
        ERROR("error");

        static final List<Outcome> WRITES = List.of(WRITTEN, REJECTED, AMBIGUOUS, ERROR);
        final String tag;

        Outcome(String tag) {
            this.tag = tag;
        }
    }

    private final Map<Op, Map<Outcome, Timer>> timers = new EnumMap<>(Op.class);
    private final Counter bytesRead;
    private final Counter bytesWritten;

    BucketMetrics(MeterRegistry registry) {
        for (Op op : Op.values()) {
            Map<Outcome, Timer> byOutcome = new EnumMap<>(Outcome.class);
            for (Outcome o : op.outcomes) {
                byOutcome.put(o, Histograms.timer(registry, "cellgate.bucket.requests",
                        "Bucket operations by operation and outcome", Tags.of("op", op.tag, "outcome", o.tag)));
            }
            timers.put(op, byOutcome);
        }
        bytesRead = Counter.builder("cellgate.bucket.bytes").description("Object bytes read from or written to the bucket")
                .baseUnit("bytes").tag("direction", "read").register(registry);
        bytesWritten = Counter.builder("cellgate.bucket.bytes").description("Object bytes read from or written to the bucket")
                .baseUnit("bytes").tag("direction", "written").register(registry);
    }

    void record(Op op, Outcome outcome, long nanos) {
        Timer t = timers.get(op).get(outcome);
        if (t == null) {
            throw new IllegalArgumentException("bucket op " + op.tag + " has no outcome " + outcome.tag);
        }
        t.record(nanos, TimeUnit.NANOSECONDS);
    }

    void read(long bytes) {
        bytesRead.increment(bytes);
    }

    void written(long bytes) {
        bytesWritten.increment(bytes);
    }
}
