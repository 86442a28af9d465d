package dev.cellgate.gateway.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * The one set of latency buckets every cellgate timer publishes. Fixed buckets, no client-side
 * percentiles: recording is a bucket search and an atomic add, with no allocation, and buckets
 * can be aggregated across a fleet in PromQL ({@code histogram_quantile}), percentiles cannot.
 */
final class Histograms {
    /** From a cached-cell answer (about a millisecond) to a slow cold restore or a bucket timeout. */
    static final Duration[] BUCKETS = {
            Duration.ofMillis(1), Duration.ofNanos(2_500_000), Duration.ofMillis(5), Duration.ofMillis(10),
            Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5),
            Duration.ofSeconds(10), Duration.ofSeconds(30)};

    private Histograms() {
    }

    /** A timer with the fixed buckets. */
    static Timer timer(MeterRegistry registry, String name, String description, Tags tags) {
        return Timer.builder(name).description(description).tags(tags)
                .publishPercentileHistogram(false).serviceLevelObjectives(BUCKETS).register(registry);
    }
}
