package dev.cellgate.gateway.it;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Qualification (run by .ci/qualify.sh; {@link CronTriggersIT} is its short CI variant): issue 21
 * item 6's acceptance case. Three nodes, a {@code * * * * *} trigger, three minutes: exactly three
 * runs with distinct, minute-aligned scheduledTimes. Over 4 minutes with the nodes' start, so not CI.
 */
class CronTriggersScenario {
    @TempDir
    Path dir;
    Fleet fleet;

    @AfterEach
    void stop() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void threeNodesRunEachOfThreeOccurrencesOnce() throws Exception {
        fleet = Fleet.onFileBucket(dir, Map.of("CELLD_TTL_MS", "3000"));
        CronTriggersIT.everyOccurrenceOnce(fleet, List.of("q1", "q2", "q3"), 3);
    }
}
