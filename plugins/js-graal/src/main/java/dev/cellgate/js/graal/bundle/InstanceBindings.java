package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.spi.js.InstanceHost;
import dev.cellgate.js.graal.host.BindingBridge;
import java.util.HashMap;
import java.util.Map;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;

/** One context's view of the deployment's bindings: opens each through its provider, evaluates each wrapper once. */
final class InstanceBindings implements BindingBridge.Source {
    private final DeploymentBindings bindings;
    private final InstanceHost host;
    private final Map<String, Value> wrappers = new HashMap<>();

    InstanceBindings(DeploymentBindings bindings, InstanceHost host) {
        this.bindings = bindings;
        this.host = host;
    }

    @Override
    public int size() {
        return bindings.size();
    }

    @Override
    public Object open(int index) {
        return bindings.provider(index).open(bindings.binding(index), host);
    }

    @Override
    public Value wrapper(String type) {
        if (wrappers.containsKey(type)) {
            return wrappers.get(type);
        }
        Source source = BindingWrappers.of(type).orElse(null);
        Value fn = source == null ? null : Context.getCurrent().eval(source);
        wrappers.put(type, fn);
        return fn;
    }
}
