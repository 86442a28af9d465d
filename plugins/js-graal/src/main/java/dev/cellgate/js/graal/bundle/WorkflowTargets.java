package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.deploy.bindings.WorkflowBinding;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The load check of a deployment's Workflow bindings (docs/workflows.md): each names a class the
 * main module exports (an instance's cell constructs it), and one Workflow has one class: two
 * bindings of the same Workflow name with different classes would run its instances with whichever
 * created them. A refused deployment is never served; deploy-tool refuses it at push.
 */
final class WorkflowTargets {
    private WorkflowTargets() {
    }

    static void check(ScriptBundle bundle, Set<String> exportedClasses) throws ScriptLoadException {
        Map<String, String> classOf = new HashMap<>();
        for (EnvBinding b : bundle.bindings()) {
            if (!b.type().equals(WorkflowBinding.TYPE)) {
                continue;
            }
            String workflow = b.settings().getString("workflow_name");
            String className = b.settings().getString("class_name");
            if (!exportedClasses.contains(className)) {
                throw new ScriptLoadException("Workflow binding " + b.name() + " (workflow \"" + workflow + "\") names class " + className
                        + ", which the main module " + bundle.mainModule() + " does not export (exported classes: " + exportedClasses + ")");
            }
            String before = classOf.putIfAbsent(workflow, className);
            if (before != null && !before.equals(className)) {
                throw new ScriptLoadException("the workflow \"" + workflow + "\" is bound with two classes, " + before + " and " + className
                        + ": one Workflow runs one class");
            }
        }
    }
}
