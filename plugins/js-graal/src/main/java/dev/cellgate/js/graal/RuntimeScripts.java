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
 * per process and evaluated into every new context in this order. Each file is a function
 * expression {@code (function (host, internal) {…})}: {@code host} is the instance's Java bridge,
 * {@code internal} the object through which the files share private helpers. Later files may use
 * what earlier ones defined.
 */
public final class RuntimeScripts {
    static final List<String> ORDER = List.of(
            "errors.js",
            "console.js",
            "events.js",
            "abort.js",
            "timers.js",
            "encoding.js",
            "url.js",
            "url-search-params.js",
            "headers.js",
            "streams.js",
            "writable-streams.js",
            "blob.js",
            "body.js",
            "request.js",
            "response.js",
            "fetch.js",
            "crypto.js",
            "structured-clone.js",
            "durable-object-ids.js",
            "durable-object-stubs.js",
            "storage.js",
            "websocket.js",
            "unsupported.js",
            "dispatch.js");

    /** Built-in ES modules (see {@code BuiltinModules}). */
    static final List<String> MODULES = List.of("cloudflare-workers.js");

    private final List<Source> scripts;
    private final Map<String, byte[]> modules;

    private RuntimeScripts(List<Source> scripts, Map<String, byte[]> modules) {
        this.scripts = scripts;
        this.modules = modules;
    }

    static RuntimeScripts load() {
        List<Source> scripts = new ArrayList<>();
        for (String name : ORDER) {
            String text = new String(resource("cellgate/runtime/" + name), StandardCharsets.UTF_8);
            scripts.add(Source.newBuilder("js", text, "cellgate:runtime/" + name).cached(true).buildLiteral());
        }
        Map<String, byte[]> modules = new LinkedHashMap<>();
        for (String name : MODULES) {
            modules.put(name, resource("cellgate/modules/" + name));
        }
        return new RuntimeScripts(List.copyOf(scripts), Map.copyOf(modules));
    }

    public List<Source> scripts() {
        return scripts;
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
