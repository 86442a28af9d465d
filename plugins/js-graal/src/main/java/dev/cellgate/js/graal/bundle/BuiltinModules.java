package dev.cellgate.js.graal.bundle;

import dev.cellgate.core.logic.NodeCompat;
import java.util.Map;

/**
 * The module specifiers cellgate provides itself, and where they live in {@link BundleFileSystem}:
 * {@code cloudflare:workers}, and the Node built-ins ({@code node:buffer}, bare {@code "buffer"}
 * under nodejs_compat_v2…) as {@link NodeCompat} decides for the Worker's compatibility date and
 * flags. A Node module workerd does not offer here, or that cellgate does not implement, resolves
 * to a module whose evaluation throws naming it (workerd's "No such module" for the former).
 */
final class BuiltinModules {
    /** specifier → resource under {@code /cellgate/modules/} on the class path. */
    static final Map<String, String> RESOURCES = Map.of("cloudflare:workers", "cloudflare-workers.js",
            "cloudflare:workflows", "cloudflare-workflows.js");
    static final String NODE_ABSENT = BundleFileSystem.BUILTIN_ROOT + "node-absent/";
    static final String NODE_UNIMPLEMENTED = BundleFileSystem.BUILTIN_ROOT + "node-unimplemented/";
    /**
     * A bare specifier ({@code "buffer"}) gets a module re-exporting {@code node:buffer}: one module
     * instance for both spellings (GraalJS trips over two specifiers of one canonical file).
     */
    static final String NODE_BARE = BundleFileSystem.BUILTIN_ROOT + "node-bare/";

    private BuiltinModules() {
    }

    static String pathOf(String specifier) {
        String resource = RESOURCES.get(specifier);
        return resource == null ? null : BundleFileSystem.BUILTIN_ROOT + resource;
    }

    /** Where {@code specifier} lives for a Worker with compatibility {@code node}, or null when it is not ours. */
    static String pathOf(String specifier, NodeCompat node) {
        String fixed = pathOf(specifier);
        if (fixed != null) {
            return fixed;
        }
        String name = node.resolve(specifier);
        if (name == null) {
            // An unknown node: name is no package either: workerd's "No such module".
            return specifier.startsWith("node:") ? NODE_ABSENT + URLEncoding.encode(specifier) + ".js" : null;
        }
        return switch (node.availability(name)) {
            // Without nodejs_compat, workerd's node:process is a small standalone object (no registry to reach).
            case PROVIDED -> !specifier.startsWith("node:") ? NODE_BARE + URLEncoding.encode(name) + ".js"
                    : BundleFileSystem.BUILTIN_ROOT + (!node.nodejsCompat() && name.equals("process") ? "node-process-v1.js" : "node/" + name + ".js");
            case NOT_IMPLEMENTED -> NODE_UNIMPLEMENTED + URLEncoding.encode("node:" + name) + ".js";
            // workerd names the module with its prefix, however the import spelled it.
            case ABSENT -> NODE_ABSENT + URLEncoding.encode("node:" + name) + ".js";
        };
    }

    /** The source of a bare alias module ({@code node-bare/…}), or null for any other path. */
    static String generatedSource(String path) {
        if (!path.startsWith(NODE_BARE)) {
            return null;
        }
        String target = BundleFileSystem.quote("node:" + decode(path, NODE_BARE));
        return "export * from " + target + ";\nexport { default } from " + target + ";\n";
    }

    /**
     * Why a Node module cannot be loaded ({@code path} under {@link #NODE_ABSENT} or
     * {@link #NODE_UNIMPLEMENTED}), or null. Reading such a path fails with this message, which
     * GraalJS turns into the import's Error: a static import then fails the load with it (whatever
     * names it imports) and an {@code import()} rejects with it, as on workerd.
     */
    static String refusal(String path) {
        if (path.startsWith(NODE_ABSENT)) {
            return NodeCompat.noSuchModule(decode(path, NODE_ABSENT));
        }
        if (path.startsWith(NODE_UNIMPLEMENTED)) {
            return "cellgate does not implement the Node.js module \"" + decode(path, NODE_UNIMPLEMENTED)
                    + "\" (workerd provides it at this compatibility date and flags)";
        }
        return null;
    }

    private static String decode(String path, String root) {
        return URLEncoding.decode(path.substring(root.length(), path.length() - 3));
    }
}
