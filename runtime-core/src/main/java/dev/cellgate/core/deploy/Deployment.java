package dev.cellgate.core.deploy;

import dev.cellgate.core.spi.js.ScriptBundle;
import java.util.LinkedHashMap;
import java.util.Map;

/** A deployment read from the bucket: its manifest and module sources. */
public record Deployment(Manifest manifest, Map<String, String> modules) {

    /** The engine's view, with {@code vars} overridden by the node's {@code CELLD_VAR_*}. */
    public ScriptBundle toBundle(Map<String, String> varOverrides) {
        Map<String, String> vars = new LinkedHashMap<>(manifest.vars());
        vars.putAll(varOverrides);
        return new ScriptBundle(manifest.id(), manifest.name(), manifest.main(), modules, vars,
                manifest.durableObjects(), manifest.compatibilityDate(), manifest.compatibilityFlags());
    }
}
