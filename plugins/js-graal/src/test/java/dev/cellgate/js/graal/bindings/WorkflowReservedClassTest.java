package dev.cellgate.js.graal.bindings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.bindings.FleetBindings;
import dev.cellgate.core.bindings.WorkflowCells;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.support.TestEngine;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Workflow instance class is the engine's own: the cell host may construct it only in a
 * deployment with a Workflow binding, no export may take its name, and a binding must name a class
 * the Worker exports (one class per Workflow).
 */
class WorkflowReservedClassTest {
    private static TestEngine engine;

    @BeforeAll
    static void start() {
        engine = new TestEngine(FleetBindings.registry(null));
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    private static ScriptBundle bundle(String source, List<EnvBinding> bindings) {
        return new ScriptBundle("w", "w", "worker.js", Map.of("worker.js", source), Map.of(), Map.of(), "2025-01-01", List.of())
                .withBindings(bindings);
    }

    private static EnvBinding flow(String name, String workflow, String className) {
        return new EnvBinding(name, "workflow", new JsonObject().put("workflow_name", workflow).put("class_name", className));
    }

    static final String WORKER = "import { WorkflowEntrypoint } from 'cloudflare:workers';\n"
            + "export class Flow extends WorkflowEntrypoint { async run() {} }\nexport class Other extends WorkflowEntrypoint { async run() {} }\n"
            + "export default { fetch() { return new Response('ok'); } };";

    @Test
    void aDeploymentWithAWorkflowBindingServesTheBuiltInClassAndOnlyThen() throws Exception {
        try (LoadedScript with = engine.load(bundle(WORKER, List.of(flow("FLOW", "f", "Flow"))));
             LoadedScript without = engine.load(bundle(WORKER, List.of()))) {
            assertThat(with.exportedClasses()).containsExactlyInAnyOrder("Flow", "Other", WorkflowCells.CLASS_NAME);
            assertThat(without.exportedClasses()).containsExactlyInAnyOrder("Flow", "Other");
        }
    }

    @Test
    void anExportNamedLikeTheBuiltInClassIsRefusedAtLoad() {
        String worker = WORKER + "\nclass X {}\nexport { X as $cellgate$Workflow };";
        assertThatThrownBy(() -> engine.load(bundle(worker, List.of(flow("FLOW", "f", "Flow")))).close())
                .hasMessageContaining("$cellgate$Workflow").hasMessageContaining("reserved");
    }

    @Test
    void aBindingMustNameAnExportedClassAndOneWorkflowOneClass() {
        assertThatThrownBy(() -> engine.load(bundle(WORKER, List.of(flow("FLOW", "f", "Missing")))).close())
                .hasMessageContaining("Workflow binding FLOW (workflow \"f\") names class Missing, which the main module worker.js does not export");
        assertThatThrownBy(() -> engine.load(bundle(WORKER, List.of(flow("A", "f", "Flow"), flow("B", "f", "Other")))).close())
                .hasMessageContaining("the workflow \"f\" is bound with two classes, Flow and Other");
    }
}
