package dev.cellgate.js.graal.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.graalvm.polyglot.Source;

/**
 * The JavaScript face of binding types: {@code cellgate/bindings/<type>.js} in the plugin jar, a
 * function expression {@code (function (host, internal) { return (target, settings, name) => value; })}
 * that turns the provider's host object into the Workers API (a KV namespace's {@code get}/{@code put},
 * …). A type without a file puts the host object on {@code env} as it is (a secret's string).
 * Read and compiled once per process, evaluated into a context the first time it opens a binding
 * of that type.
 */
final class BindingWrappers {
    private static final Pattern TYPE = Pattern.compile("[a-z][a-z0-9_]*");
    private static final Map<String, Optional<Source>> SOURCES = new ConcurrentHashMap<>();

    private BindingWrappers() {
    }

    static Optional<Source> of(String type) {
        if (!TYPE.matcher(type).matches()) {
            return Optional.empty();
        }
        return SOURCES.computeIfAbsent(type, BindingWrappers::read);
    }

    private static Optional<Source> read(String type) {
        String path = "cellgate/bindings/" + type + ".js";
        try (InputStream in = BindingWrappers.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                return Optional.empty();
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return Optional.of(Source.newBuilder("js", text, "cellgate:bindings/" + type + ".js").cached(true).buildLiteral());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }
}
