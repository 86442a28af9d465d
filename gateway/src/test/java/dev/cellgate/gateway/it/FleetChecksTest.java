package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FleetChecksTest {
    private static Map.Entry<String, JsonObject> line(String process, String scope, long epoch) {
        return Map.entry(process, new JsonObject().put("event", "cell.activated").put("scope", scope).put("epoch", epoch));
    }

    @Test
    void distinctEpochsPerScopeAreFine() {
        assertThat(FleetChecks.doubleActivations(List.of(line("n1#1", "L:a", 1), line("n2#1", "L:a", 2), line("n1#1", "L:b", 1))))
                .isEmpty();
    }

    @Test
    void oneEpochActivatedByTwoProcessesIsReported() {
        assertThat(FleetChecks.doubleActivations(List.of(line("n1#1", "L:a", 3), line("n2#1", "L:a", 3))))
                .containsExactly("L:a@3 activated by [n1#1, n2#1]");
    }

    @Test
    void aProcessReactivatingWithoutBumpingTheEpochIsReported() {
        assertThat(FleetChecks.doubleActivations(List.of(line("n1#1", "L:a", 3), line("n1#1", "L:a", 3)))).hasSize(1);
    }

    @Test
    void aLineWithoutScopeOrEpochCannotPassUnchecked() {
        assertThat(FleetChecks.doubleActivations(List.of(
                Map.entry("n1#1", new JsonObject().put("event", "cell.activated"))))).hasSize(1);
    }
}
