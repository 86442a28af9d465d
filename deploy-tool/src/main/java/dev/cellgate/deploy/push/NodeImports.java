package dev.cellgate.deploy.push;

import dev.cellgate.core.logic.NodeCompat;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Node built-ins at bundle time, resolved the way Wrangler resolves them for the Worker's
 * compatibility ({@link NodeCompat}, the same decision the engine makes at run time):
 * <ul>
 *   <li>without {@code nodejs_compat}: nothing is external, so esbuild fails on the import, and the
 *       failure says to add the flag ({@code nodejs_als}: {@code node:async_hooks} only);</li>
 *   <li>{@code nodejs_compat} before 2024-09-23: {@code node:*} is external; a bare name
 *       ({@code "path"}) fails, saying to prefix it or move the date;</li>
 *   <li>from 2024-09-23 ({@code nodejs_compat_v2}): bare names are rewritten to {@code node:} and
 *       kept external too.</li>
 * </ul>
 * A {@code require("node:…")} left in the bundle (CommonJS dependencies) is answered by a
 * {@code require} the bundle's first lines define from static imports of exactly those modules.
 * A bundle pushed as it is gets no such rewriting: the load check ({@link LoadCheck}) resolves its
 * imports in the engine, and a refusal for a built-in the compatibility lacks says what would add it.
 */
final class NodeImports {
    private static final Pattern UNRESOLVED = Pattern.compile("Could not resolve \"([^\"]+)\"");
    /** How the load check names a module the bundle lacks: workerd's error, or GraalJS's link error for a named import of it. */
    private static final Pattern MISSING_MODULE = Pattern.compile(
            "No such module \"([^\"]+)\"|The requested module '([^']+)' does not provide an export");
    private static final Pattern REQUIRED = Pattern.compile("__require\\(\"(node:[a-z_/]+)\"\\)");

    private NodeImports() {
    }

    /** esbuild's arguments for the Node built-ins under {@code node}. */
    static List<String> esbuildArgs(NodeCompat node) {
        List<String> args = new ArrayList<>();
        if (node.nodejsCompat()) {
            args.add("--external:node:*");
        } else if (node.asyncLocalStorage()) {
            args.add("--external:node:async_hooks");
        }
        if (node.v2()) {
            for (String name : new TreeSet<>(NodeCompat.bareBuiltins())) {
                if (!name.contains("/")) {
                    args.add("--alias:" + name + "=node:" + name); // subpaths (path/posix) follow their package
                }
            }
        }
        return args;
    }

    /** What to add to esbuild's failure output when it could not resolve Node built-ins, or "" when it did not. */
    static String explain(String esbuildOutput, NodeCompat node) {
        Set<String> builtins = new LinkedHashSet<>();
        for (String spec : named(UNRESOLVED, esbuildOutput)) {
            if (NodeCompat.builtinName(spec, true) != null) {
                builtins.add(spec);
            }
        }
        return hints(builtins, node);
    }

    /**
     * What to add to the load check's failure when a module the bundle lacks (workerd's
     * {@code No such module "node:buffer"}, or a named import of {@code "path"} that cannot link;
     * a bundle pushed as it is) is a Node built-in the Worker's compatibility does not give it, or
     * "". The engine decided what resolves; this only says which flag or spelling would change that.
     */
    static String explainLoadFailure(String message, NodeCompat node) {
        return hints(refused(named(MISSING_MODULE, message), node), node);
    }

    private static Set<String> named(Pattern p, String text) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = p.matcher(text);
        while (m.find()) {
            for (int g = 1; g <= m.groupCount(); g++) {
                if (m.group(g) != null) {
                    out.add(m.group(g));
                }
            }
        }
        return out;
    }

    private static String hints(Set<String> builtins, NodeCompat node) {
        StringBuilder out = new StringBuilder();
        for (String spec : builtins) {
            out.append("\n\"").append(spec).append("\" is a Node.js built-in module: ");
            if (!node.nodejsCompat()) {
                out.append("add \"nodejs_compat\" to compatibility_flags in the Wrangler config to use it");
            } else {
                out.append("write it \"node:").append(spec).append("\", or set compatibility_date to 2024-09-23 or later "
                        + "(nodejs_compat_v2 resolves bare names)");
            }
        }
        return out.toString();
    }

    /** The {@code node:} modules a bundle {@code require()}s (CommonJS code esbuild left as {@code __require}). */
    static Set<String> required(String bundle) {
        Set<String> out = new TreeSet<>();
        Matcher m = REQUIRED.matcher(bundle);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The banner that defines {@code require} for {@code modules}: Node's value of each is the module's default export. */
    static String requireBanner(Set<String> modules) {
        StringBuilder imports = new StringBuilder("// deploy-tool: require() of Node built-ins (nodejs_compat)\n");
        StringBuilder table = new StringBuilder("const __cellgate_node_modules = {");
        int i = 0;
        for (String spec : modules) {
            imports.append("import * as __cellgate_node_").append(i).append(" from \"").append(spec).append("\";\n");
            table.append(" \"").append(spec).append("\": __cellgate_node_").append(i).append(',');
            i++;
        }
        table.append(" };\n");
        return imports + table.toString()
                + "const require = (id) => { const m = __cellgate_node_modules[id]; if (m === undefined) throw new Error("
                + "'Dynamic require of \"' + id + '\" is not supported'); return m.default; };\n";
    }

    /**
     * The Node built-ins among {@code specifiers} that this Worker may not import because of its
     * compatibility (no flag, or a bare name before nodejs_compat_v2), so a hint can name the fix.
     */
    private static Set<String> refused(Set<String> imports, NodeCompat node) {
        Set<String> out = new TreeSet<>();
        for (String spec : imports) {
            if (NodeCompat.builtinName(spec, true) == null) {
                continue;
            }
            String name = node.resolve(spec);
            boolean allowed = name != null && (node.nodejsCompat() || (node.asyncLocalStorage() && name.equals("async_hooks")));
            if (!allowed) {
                out.add(spec);
            }
        }
        return out;
    }
}
