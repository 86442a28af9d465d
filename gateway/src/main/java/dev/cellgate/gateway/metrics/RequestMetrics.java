package dev.cellgate.gateway.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * {@code cellgate_requests_seconds{kind, outcome}}: rate (the count) and latency of every request
 * a node serves or sends. The timers are created up front, so recording is an array lookup.
 */
public final class RequestMetrics {
    /** What kind of request. */
    public enum Kind {
        /** A public request to the Worker (the public listener, health checks excluded). */
        WORKER("worker"),
        /** A stub call from this node served by a cell resident here. */
        CELL_LOCAL("cell_local"),
        /** A stub call from this node forwarded to the cell's owner. */
        CELL_FORWARDED("cell_forwarded"),
        /** A cell call forwarded to this node by a peer (internal listener). */
        PEER("peer");

        final String tag;

        Kind(String tag) {
            this.tag = tag;
        }
    }

    /** How a request ended: HTTP status below 400, 4xx, or 5xx / an exception. */
    enum Outcome {
        OK("ok"), CLIENT_ERROR("client_error"), ERROR("error");

        final String tag;

        Outcome(String tag) {
            this.tag = tag;
        }

        static Outcome ofStatus(int status) {
            return status >= 500 || status <= 0 ? ERROR : status >= 400 ? CLIENT_ERROR : OK;
        }
    }

    private final Timer[][] timers = new Timer[Kind.values().length][Outcome.values().length];

    RequestMetrics(MeterRegistry registry) {
        for (Kind k : Kind.values()) {
            for (Outcome o : Outcome.values()) {
                timers[k.ordinal()][o.ordinal()] = Histograms.timer(registry, "cellgate.requests",
                        "Requests served or sent by this node, by kind and outcome", Tags.of("kind", k.tag, "outcome", o.tag));
            }
        }
    }

    /** A request answered with an HTTP status (0 when the connection failed before a status). */
    public void http(Kind kind, int status, long nanos) {
        timers[kind.ordinal()][Outcome.ofStatus(status).ordinal()].record(nanos, TimeUnit.NANOSECONDS);
    }

    /** A call that succeeded or failed (stub calls have no HTTP status of their own). */
    void call(Kind kind, boolean ok, long nanos) {
        timers[kind.ordinal()][(ok ? Outcome.OK : Outcome.ERROR).ordinal()].record(nanos, TimeUnit.NANOSECONDS);
    }
}
