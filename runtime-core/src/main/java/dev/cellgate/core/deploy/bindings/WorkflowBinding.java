package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonObject;
import java.util.Set;

/** {@code workflows[]}: a Workflow whose {@code WorkflowEntrypoint} class the Worker exports. */
public record WorkflowBinding(String name, String workflowName, String className) implements Binding {
    public static final String TYPE = "workflow";

    public WorkflowBinding {
        Bindings.requireName(name);
        java.util.Objects.requireNonNull(workflowName, "workflowName");
        java.util.Objects.requireNonNull(className, "className");
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public JsonObject settings() {
        return new JsonObject().put("workflow_name", workflowName).put("class_name", className);
    }

    static WorkflowBinding decode(String name, StrictJson f) {
        f.only(Set.of("type", "name", "workflow_name", "class_name"));
        return new WorkflowBinding(name, f.text("workflow_name"), f.text("class_name"));
    }
}
