package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.deploy.bindings.ServiceBinding;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;

/**
 * The load check of a deployment's service bindings: each must name this very Worker (a fleet runs
 * one, so nothing could answer another) and an entrypoint its main module exports, as workerd
 * refuses to start a Worker whose binding names an entrypoint that does not exist. A refused
 * deployment is never served; deploy-tool refuses it at push with the same message.
 */
final class ServiceTargets {
    private ServiceTargets() {
    }

    /** @param exportKinds the main module's exports, {@code {name: kind}} as JSON (dispatch.js {@code exportKinds}) */
    static void check(ScriptBundle bundle, Supplier<String> exportKinds) throws ScriptLoadException {
        JsonObject kinds = null;
        for (EnvBinding b : bundle.bindings()) {
            if (!b.type().equals(ServiceBinding.TYPE)) {
                continue;
            }
            String service = b.settings().getString("service");
            if (!bundle.scriptName().equals(service)) {
                throw new ScriptLoadException("binding " + b.name() + " is a service binding to the Worker \"" + service
                        + "\", but a cellgate fleet runs one Worker (\"" + bundle.scriptName() + "\"): only service bindings to that Worker"
                        + " itself are implemented");
            }
            if (kinds == null) {
                kinds = new JsonObject(exportKinds.get());
            }
            String entrypoint = b.settings().getString("entrypoint");
            if (entrypoint != null && !kinds.containsKey(entrypoint)) {
                throw new ScriptLoadException("Worker \"" + service + "\"'s binding \"" + b.name() + "\" refers to the entrypoint \""
                        + entrypoint + "\", which " + bundle.mainModule() + " does not export (it exports " + kinds.fieldNames() + ")");
            }
        }
    }
}
