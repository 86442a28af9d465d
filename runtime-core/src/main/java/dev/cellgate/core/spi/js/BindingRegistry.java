package dev.cellgate.core.spi.js;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The binding types a node (or deploy-tool's load check) serves, by type tag. A deployment with a
 * binding of any other type is refused when it loads, naming the binding and its type: a binding
 * is never an env entry that silently does nothing.
 */
public final class BindingRegistry {
    /** Serves no binding type: every binding besides vars and Durable Object namespaces is refused. */
    public static final BindingRegistry NONE = new BindingRegistry(Map.of());

    private final Map<String, BindingProvider> providers;

    private BindingRegistry(Map<String, BindingProvider> providers) {
        this.providers = Map.copyOf(providers);
    }

    public static BindingRegistry of(BindingProvider... providers) {
        Map<String, BindingProvider> m = new LinkedHashMap<>();
        for (BindingProvider p : providers) {
            if (m.put(p.type(), p) != null) {
                throw new IllegalArgumentException("two providers for binding type " + p.type());
            }
        }
        return new BindingRegistry(m);
    }

    public Optional<BindingProvider> provider(String type) {
        return Optional.ofNullable(providers.get(type));
    }

    /** The type tags served, sorted. */
    public Set<String> types() {
        return new TreeSet<>(providers.keySet());
    }

    /**
     * The provider of {@code b}'s type, its settings checked.
     *
     * @throws ScriptLoadException naming the binding when no provider serves its type or its settings are bad
     */
    public BindingProvider require(EnvBinding b) throws ScriptLoadException {
        BindingProvider p = providers.get(b.type());
        if (p == null) {
            throw new ScriptLoadException("binding " + b.name() + " is of type " + b.type()
                    + ", which is not implemented yet on this fleet (this node serves: "
                    + (providers.isEmpty() ? "none besides vars and Durable Objects" : types()) + ")");
        }
        try {
            p.check(b);
        } catch (IllegalArgumentException e) {
            throw new ScriptLoadException("binding " + b.name() + " (" + b.type() + "): " + e.getMessage());
        }
        return p;
    }
}
