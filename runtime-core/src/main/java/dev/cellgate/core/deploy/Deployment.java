package dev.cellgate.core.deploy;

import dev.cellgate.core.spi.js.BundleModule;
import dev.cellgate.core.spi.js.ScriptBundle;
import java.util.LinkedHashMap;
import java.util.Map;

/** A deployment read from the bucket: its manifest and the bytes of each module, by path. */
public record Deployment(Manifest manifest, Map<String, byte[]> modules) {

    /** The engine's view, with {@code vars} overridden by the node's {@code CELLD_VAR_*}. */
    public ScriptBundle toBundle(Map<String, String> varOverrides) {
        Map<String, String> vars = new LinkedHashMap<>(manifest.vars());
        vars.putAll(varOverrides);
        Map<String, BundleModule> files = new LinkedHashMap<>();
        for (Manifest.BlobRef ref : manifest.modules()) {
            files.put(ref.path(), new BundleModule(ref.moduleType(), modules.get(ref.path())));
        }
        return ScriptBundle.of(manifest.id(), manifest.name(), manifest.main(), files, vars,
                manifest.durableObjects(), manifest.compatibilityDate(), manifest.compatibilityFlags());
    }
}
