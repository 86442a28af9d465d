package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durable execution across a crash (docs/workflows.md): two real nodes on the S3-compatible server;
 * the node that owns a Workflow instance is SIGKILLed in the middle of a step and the survivor
 * resumes the instance where it was ({@link WorkflowCrash}). Each step counts its side effect in a
 * Durable Object: the steps completed before the kill ran once; the step in flight at the kill ran
 * again (steps are at least once) and ended once; the rest ran once. The broken
 * variant this scenario catches runs under .ci/qualify.sh ({@link WorkflowBrokenMemoScenario}).
 */
class WorkflowFleetIT {
    @TempDir
    Path dir;

    @Test
    void theSurvivorResumesTheInstanceWhereItWasAfterItsOwnersSigkill() throws Exception {
        JsonObject counts = WorkflowCrash.killTheOwnerMidStep(dir, List.of());
        assertThat(counts.getMap()).as("each step's side effect, counted: completed steps are not re-run after the takeover")
                .isEqualTo(Map.of("reserve", 1, "charge", 1, "pack started", 2, "pack", 1, "ship", 1));
    }
}
