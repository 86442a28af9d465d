package dev.cellgate.core.deploy;

import dev.cellgate.core.deploy.bindings.Binding;
import dev.cellgate.core.deploy.bindings.DurableObjectNamespaceBinding;
import dev.cellgate.core.deploy.bindings.PlainTextBinding;
import dev.cellgate.core.deploy.bindings.SecretTextBinding;
import dev.cellgate.core.spi.js.BundleModule;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A deployment read from the bucket: its manifest and the bytes of each module, by path. */
public record Deployment(Manifest manifest, Map<String, byte[]> modules) {

    /** The engine's view of a deployment without secrets (a manifest naming one is refused). */
    public ScriptBundle toBundle(Map<String, String> varOverrides) {
        try {
            return toBundle(varOverrides, Map.of());
        } catch (ScriptLoadException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * The engine's view: {@code vars} overridden by the node's {@code CELLD_VAR_*}, Durable Object
     * namespaces, and every other binding as an {@link EnvBinding} for the node's providers, each
     * secret with its value from {@code secretValues}.
     *
     * @throws ScriptLoadException naming a secret the manifest lists but {@code secretValues} lacks
     */
    public ScriptBundle toBundle(Map<String, String> varOverrides, Map<String, String> secretValues) throws ScriptLoadException {
        Map<String, String> vars = new LinkedHashMap<>();
        Map<String, String> durableObjects = new LinkedHashMap<>();
        List<EnvBinding> others = new ArrayList<>();
        for (Binding b : manifest.bindings()) {
            switch (b) {
                case PlainTextBinding p -> vars.put(p.name(), p.text());
                case DurableObjectNamespaceBinding d -> durableObjects.put(d.name(), d.className());
                case SecretTextBinding s -> {
                    String value = secretValues.get(s.name());
                    if (value == null) {
                        throw new ScriptLoadException("deployment " + manifest.id() + " needs the secret " + s.name() + " (version "
                                + s.version() + "), which is not in the bucket (deleted? deploy-tool secret put " + s.name() + " --name "
                                + manifest.name() + " makes a new deployment with a new value)");
                    }
                    others.add(new EnvBinding(s.name(), s.type(), s.settings(), value));
                }
                // env.ASSETS serves by the manifest's assets object: its provider gets that as settings
                case dev.cellgate.core.deploy.bindings.AssetsBinding a -> others.add(new EnvBinding(a.name(), a.type(),
                        manifest.settings().assets() == null ? null : manifest.settings().assets().toJson()));
                default -> others.add(new EnvBinding(b.name(), b.type(), b.settings()));
            }
        }
        // Queues: the hidden binding that carries the consumers and installs the queue cells' class
        // in every instance (bindings/QueuesProvider), wherever the Worker produces or consumes.
        if (!manifest.settings().queueConsumers().isEmpty()
                || manifest.bindings().stream().anyMatch(b -> b instanceof dev.cellgate.core.deploy.bindings.QueueProducerBinding)) {
            others.add(dev.cellgate.core.bindings.QueuesProvider.binding(manifest.settings().queueConsumers()));
        }
        varOverrides.forEach((k, v) -> {
            if (vars.containsKey(k) || !isBound(k)) {
                vars.put(k, v);
            }
        });
        Map<String, BundleModule> files = new LinkedHashMap<>();
        for (Manifest.BlobRef ref : manifest.modules()) {
            files.put(ref.path(), new BundleModule(ref.moduleType(), modules.get(ref.path())));
        }
        return ScriptBundle.of(manifest.id(), manifest.name(), manifest.main(), files, vars, durableObjects,
                manifest.compatibilityDate(), manifest.compatibilityFlags()).withBindings(others)
                .withCpuLimitMs(manifest.settings().cpuMs());
    }

    /** A {@code CELLD_VAR_*} override adds a var unless a binding of another type has that name. */
    private boolean isBound(String name) {
        return manifest.bindings().stream().anyMatch(b -> b.name().equals(name));
    }
}
