package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.bindings.WorkflowProvider;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broken variant of {@link WorkflowFleetIT} (.ci/qualify.sh runs it: two more node start-ups
 * would put the IT past CI's budget): with {@link WorkflowProvider#BROKEN_MEMO_PROPERTY} the nodes
 * keep step results in memory until the run suspends, so a step counts as done before its result
 * is durable. The same crash then re-runs the steps that had completed before the kill, and the
 * same counts show it.
 */
class WorkflowBrokenMemoScenario {
    @TempDir
    Path dir;

    @Test
    void theBrokenVariantReRunsCompletedStepsAndIsCaught() throws Exception {
        JsonObject counts = WorkflowCrash.killTheOwnerMidStep(dir, List.of("-D" + WorkflowProvider.BROKEN_MEMO_PROPERTY + "=true"));
        assertThat(counts.getInteger("reserve") + counts.getInteger("charge"))
                .as("with step results kept in memory, the steps done before the kill run again on the survivor: " + counts)
                .isGreaterThan(2);
    }
}
