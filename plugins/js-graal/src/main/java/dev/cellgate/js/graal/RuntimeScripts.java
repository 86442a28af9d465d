package dev.cellgate.js.graal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.graalvm.polyglot.Source;

/**
 * The Workers runtime written in JavaScript: small resource files, one concern each, compiled once
 * per process ({@code cached} Sources on the shared engine). Each file is a function expression
 * {@code (function (host, internal) {…})}: {@code host} is the instance's Java bridge,
 * {@code internal} the object through which the files share private helpers.
 *
 * <p>Only {@link #EAGER} files run in every new context, in this order. The others are evaluated
 * into a context when it first touches a name they define: {@code lazy.js} lists them with their
 * names, and asks for them by file name through {@link #lazy}. A new cell or Worker then pays for
 * the platform it uses, not for all of it.
 */
public final class RuntimeScripts {
    static final List<String> EAGER = List.of(
            "errors.js",
            "lazy.js",
            "console.js",
            "date.js",
            "timers.js",
            "encoding.js",
            "headers.js",
            "body.js",
            "request.js",
            "response.js",
            "fetch.js",
            "dispatch.js");


    /** Built-in ES modules (see {@code BuiltinModules}). */
    static final List<String> MODULES = List.of("cloudflare-workers.js", "cloudflare-workflows.js", "bundle-modules.js");

    /**
     * The node: modules (nodejs_compat, {@code BuiltinModules}): the registry the facades import,
     * the minimal node:process of Workers without the flag, and one generated facade per module
     * ({@code build-node-modules.mjs}).
     */
    static final List<String> NODE_MODULES = nodeModules();

    private static List<String> nodeModules() {
        List<String> names = new ArrayList<>(List.of("node-registry.js", "node-process-v1.js"));
        new java.util.TreeSet<>(dev.cellgate.core.logic.NodeCompat.IMPLEMENTED).forEach(n -> names.add("node/" + n + ".js"));
        return List.copyOf(names);
    }

    private static final java.util.regex.Pattern FILE_NAME = java.util.regex.Pattern.compile("[a-z][a-z-]*\\.js");

    private final List<Source> scripts;
    private final Map<String, Source> lazy = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, byte[]> modules;

    private RuntimeScripts(List<Source> scripts, Map<String, byte[]> modules) {
        this.scripts = scripts;
        this.modules = modules;
    }

    static RuntimeScripts load() {
        List<Source> scripts = new ArrayList<>();
        for (String name : EAGER) {
            scripts.add(source(name));
        }
        Map<String, byte[]> modules = new LinkedHashMap<>();
        for (String name : MODULES) {
            modules.put(name, resource("cellgate/modules/" + name));
        }
        for (String name : NODE_MODULES) {
            modules.put(name, resource("cellgate/modules/" + name));
        }
        return new RuntimeScripts(List.copyOf(scripts), Map.copyOf(modules));
    }

    private static Source source(String name) {
        String text = new String(resource("cellgate/runtime/" + name), StandardCharsets.UTF_8);
        return Source.newBuilder("js", text, "cellgate:runtime/" + name).cached(true).buildLiteral();
    }

    /** The files every new context evaluates, in order. */
    public List<Source> scripts() {
        return scripts;
    }

    /** A lazily evaluated runtime file by name ({@code lazy.js} asks for it), read and compiled once per process. */
    public Source lazy(String name) {
        if (!FILE_NAME.matcher(name).matches() || EAGER.contains(name)) {
            throw new IllegalArgumentException("'" + name + "' is not a lazy runtime file");
        }
        return lazy.computeIfAbsent(name, RuntimeScripts::source);
    }

    /** Built-in module file name → source bytes. */
    public Map<String, byte[]> modules() {
        return modules;
    }

    private static byte[] resource(String path) {
        try (InputStream in = RuntimeScripts.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("runtime resource " + path + " is missing from the js-graal plugin jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read runtime resource " + path, e);
        }
    }
}
