package dev.cellgate.js.graal.bundle;

import java.util.Map;

/** The module specifiers cellgate provides itself, and where they live in {@link BundleFileSystem}. */
final class BuiltinModules {
    /** specifier → resource under {@code /cellgate/modules/} on the class path. */
    static final Map<String, String> RESOURCES = Map.of("cloudflare:workers", "cloudflare-workers.js");

    private BuiltinModules() {
    }

    static String pathOf(String specifier) {
        String resource = RESOURCES.get(specifier);
        return resource == null ? null : BundleFileSystem.BUILTIN_ROOT + resource;
    }
}
