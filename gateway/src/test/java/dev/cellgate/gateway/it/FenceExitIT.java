package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29: what a node does when its lease lapses, on real processes and a real SIGSTOP past the
 * TTL. By default it degrades and rejoins with a new session, no exit, and serves its cells again;
 * with {@code CELLD_FENCE_EXIT=1} it exits 3 for a supervisor, as nodes always did before.
 */
class FenceExitIT {
    static final long TTL_MS = 4_000;

    @TempDir
    Path dir;

    @Test
    void aLapsedLeaseDegradesByDefaultAndExitsWithFenceExit() throws Exception {
        try (Fleet fleet = Fleet.onFileBucket(dir, Map.of("CELLD_TTL_MS", Long.toString(TTL_MS)))) {
            fleet.deployCounter();
            NodeProcess keeps = fleet.start("keeps");
            NodeProcess exits = fleet.start("exits", Map.of("CELLD_FENCE_EXIT", "1"));
            assertThat(keeps.get(keeps.publicUrl("/c/a")).body()).isEqualTo("1");
            assertThat(exits.get(exits.publicUrl("/c/b")).body()).isEqualTo("1");
            String session = keeps.state().getString("session");

            keeps.signal("STOP");
            exits.signal("STOP");
            try {
                Thread.sleep(TTL_MS + 2_000);
            } finally {
                keeps.signal("CONT");
                exits.signal("CONT");
            }

            assertThat(exits.waitForExit(Duration.ofSeconds(60))).as("CELLD_FENCE_EXIT=1: exit 3").isEqualTo(3);
            assertThat(exits.lines()).anyMatch(l -> l.startsWith("SELF-FENCE:") && l.contains("CELLD_FENCE_EXIT=1"));
            fleet.nodes.remove(exits);

            FenceOutcome outcome = FenceOutcome.await(keeps, Duration.ofSeconds(60));
            assertThat(outcome.kind()).isEqualTo("lapsed");
            assertThat(outcome.asExpected()).as("degraded and rejoined, no exit: %s", outcome).isTrue();
            assertThat(keeps.state().getString("session")).as("a new session").isNotEqualTo(session);
            assertThat(keeps.state().getValue("degraded")).as("serving again").isNull();
            HttpResponse<String> a = keeps.get(keeps.publicUrl("/c/a"));
            assertThat(a.statusCode()).isEqualTo(200);
            assertThat(a.body()).as("the cell restored from the bucket at a new epoch, nothing lost").isEqualTo("2");
            HttpResponse<String> b = keeps.get(keeps.publicUrl("/c/b"));
            assertThat(b.body()).as("the exited node's cell, taken over").isEqualTo("2");
            assertThat(keeps.alive()).isTrue();
        }
    }
}
