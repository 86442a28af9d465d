package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.spi.js.BindingProvider;
import dev.cellgate.core.spi.js.BindingRegistry;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.ScriptLoadException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * A deployment's bindings other than vars and Durable Object namespaces, each with the provider
 * that serves it, resolved once when the deployment loads: a binding of a type the host serves no
 * provider for refuses the deployment right there, by name. Every instance then opens each one
 * ({@code host.bindings().open(i)} in {@code dispatch.js}).
 */
public final class DeploymentBindings {
    static final DeploymentBindings NONE = new DeploymentBindings(List.of(), List.of());

    private final List<EnvBinding> bindings;
    private final List<BindingProvider> providers;

    private DeploymentBindings(List<EnvBinding> bindings, List<BindingProvider> providers) {
        this.bindings = List.copyOf(bindings);
        this.providers = List.copyOf(providers);
    }

    static DeploymentBindings resolve(List<EnvBinding> bindings, BindingRegistry registry) throws ScriptLoadException {
        List<BindingProvider> providers = new ArrayList<>();
        for (EnvBinding b : bindings) {
            providers.add(registry.require(b));
        }
        return new DeploymentBindings(bindings, providers);
    }

    int size() {
        return bindings.size();
    }

    EnvBinding binding(int index) {
        return bindings.get(index);
    }

    BindingProvider provider(int index) {
        return providers.get(index);
    }

    /**
     * What {@code dispatch.js} reads: {@code [{name, type, settings}]} in order. A binding's
     * confidential value is not in it; JavaScript gets that only from {@code open}.
     */
    JsonArray json() {
        JsonArray a = new JsonArray();
        for (EnvBinding b : bindings) {
            a.add(new JsonObject().put("name", b.name()).put("type", b.type()).put("settings", b.settings()));
        }
        return a;
    }
}
