package dev.cellgate.gateway.node;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StartupTimelineTest {
    @Test
    void spansChainAndAreReportedAsDurationsInTheOrderRecorded() {
        StartupTimeline t = new StartupTimeline(1_000);
        long m = 1_250;
        m = t.span("plugins", m, 1_400);
        assertThat(m).as("span returns its end, the next span's start").isEqualTo(1_400);
        m = t.span("bucket", m, 1_410);
        t.span("probe", m, 2_010);
        assertThat(t.fields()).containsExactly(
                java.util.Map.entry("plugins_ms", 150L), java.util.Map.entry("bucket_ms", 10L), java.util.Map.entry("probe_ms", 600L));
    }

    @Test
    void momentsAreMeasuredFromTheOrigin() {
        StartupTimeline t = new StartupTimeline(10_000);
        t.moment("listening", 12_500);
        t.moment("ready", 13_000);
        assertThat(t.fields()).containsEntry("listening_at_ms", 2_500L).containsEntry("ready_at_ms", 3_000L);
        assertThat(t.has("ready")).isTrue();
        assertThat(t.has("deployment_loaded")).isFalse();
        assertThat(t.originMs()).isEqualTo(10_000);
    }

    @Test
    void theFirstRecordOfANameWins() {
        StartupTimeline t = new StartupTimeline(0);
        t.span("deployment_fetch", 100, 300);
        t.span("deployment_fetch", 400, 1_000);
        t.moment("ready", 50);
        t.moment("ready", 70);
        assertThat(t.fields()).containsEntry("deployment_fetch_ms", 200L).containsEntry("ready_at_ms", 50L);
    }

    @Test
    void overlappingSpansKeepTheirOwnDurations() {
        // the first deployment compiles while the listeners bind: neither is a share of the other
        StartupTimeline t = new StartupTimeline(0);
        t.span("deployment_compile", 1_000, 3_000);
        t.span("public_listener", 1_500, 1_600);
        assertThat(t.fields()).containsEntry("deployment_compile_ms", 2_000L).containsEntry("public_listener_ms", 100L);
    }

    @Test
    void aClockThatSteppedBackCountsZeroNotANegativeDuration() {
        StartupTimeline t = new StartupTimeline(5_000);
        t.span("lease", 2_000, 1_990);
        t.moment("early", 4_000);
        assertThat(t.fields()).containsEntry("lease_ms", 0L).containsEntry("early_at_ms", 0L);
    }
}
