package dev.cellgate.core.bindings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.Scopes;
import dev.cellgate.core.spi.js.EnvBinding;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** Which cell a Workflow instance lives in, which settings a binding refuses, and the broken variant's default. */
class WorkflowProviderTest {
    private final WorkflowProvider provider = new WorkflowProvider(false);

    private static EnvBinding flow(String name, String workflow) {
        return new EnvBinding(name, "workflow", new JsonObject().put("workflow_name", workflow).put("class_name", "Flow"));
    }

    @Test
    void anInstanceCellDependsOnTheWorkflowNameAndTheInstanceIdNotOnTheBinding() {
        WorkflowProvider.Host a = (WorkflowProvider.Host) provider.open(flow("A", "orders"), null);
        WorkflowProvider.Host b = (WorkflowProvider.Host) provider.open(flow("B", "orders"), null);
        WorkflowProvider.Host other = (WorkflowProvider.Host) provider.open(flow("A", "invoices"), null);
        String scope = a.scopeOf("order-1");
        assertThat(Scopes.isValid(scope)).as("a cell scope: " + scope).isTrue();
        assertThat(scope).startsWith(WorkflowCells.CLASS_NAME + ":").isEqualTo(b.scopeOf("order-1"))
                .isEqualTo(WorkflowCells.scopeOf("orders", "order-1"));
        assertThat(scope).isNotEqualTo(a.scopeOf("order-2")).isNotEqualTo(other.scopeOf("order-1"));
        // the separator keeps ("a", "b-c") and ("a-b", "c") apart
        assertThat(WorkflowCells.hexOf("a", "b-c")).isNotEqualTo(WorkflowCells.hexOf("a-b", "c"));
    }

    @Test
    void badSettingsAreRefusedByName() {
        assertThatThrownBy(() -> provider.check(new EnvBinding("F", "workflow", new JsonObject().put("class_name", "Flow"))))
                .hasMessageContaining("workflow_name");
        assertThatThrownBy(() -> provider.check(new EnvBinding("F", "workflow", new JsonObject().put("workflow_name", "w").put("class_name", ""))))
                .hasMessageContaining("class_name");
    }

    @Test
    void theFleetServesWorkflowsAndTheBrokenVariantIsOffUnlessItsPropertyIsSet() {
        assertThat(FleetBindings.registry(null).provider("workflow")).isPresent();
        assertThat(System.getProperty(WorkflowProvider.BROKEN_MEMO_PROPERTY)).isNull();
        assertThat(((WorkflowProvider.Host) new WorkflowProvider().open(flow("F", "w"), null)).memoDeferred()).isFalse();
    }
}
