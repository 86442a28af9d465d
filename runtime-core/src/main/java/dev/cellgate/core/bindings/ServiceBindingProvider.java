package dev.cellgate.core.bindings;

import dev.cellgate.core.deploy.bindings.ServiceBinding;
import dev.cellgate.core.spi.js.BindingProvider;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.InstanceHost;

/**
 * {@code service}: a service binding to this Worker's own default export or one of its named
 * {@code WorkerEntrypoint}s ({@code env.SELF.fetch()}, RPC). A fleet runs one Worker, so the engine
 * serves every call in process, as a new request context of the same deployment; the host side only
 * checks the settings. A binding naming another Worker is refused by the engine when the deployment
 * loads (it knows the Worker's name) and by deploy-tool at push.
 */
public final class ServiceBindingProvider implements BindingProvider {
    @Override
    public String type() {
        return ServiceBinding.TYPE;
    }

    @Override
    public void check(EnvBinding binding) {
        Object service = binding.settings().getValue("service");
        if (!(service instanceof String s) || s.isEmpty()) {
            throw new IllegalArgumentException("a service binding needs the name of the Worker it calls (\"service\")");
        }
        Object entrypoint = binding.settings().getValue("entrypoint");
        if (entrypoint != null && (!(entrypoint instanceof String e) || e.isEmpty())) {
            throw new IllegalArgumentException("\"entrypoint\" must be the name of an export (got " + entrypoint + ")");
        }
        Object props = binding.settings().getValue("props");
        if (props != null && !(props instanceof io.vertx.core.json.JsonObject)) {
            throw new IllegalArgumentException("\"props\" must be an object (got " + props + ")");
        }
    }

    /** Nothing of the host is needed: the wrapper ({@code bindings/service.js}) builds the stub from the settings. */
    @Override
    public Object open(EnvBinding binding, InstanceHost host) {
        return binding.name();
    }
}
