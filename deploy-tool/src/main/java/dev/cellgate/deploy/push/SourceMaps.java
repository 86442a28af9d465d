package dev.cellgate.deploy.push;

import dev.cellgate.core.spi.js.ModuleType;
import dev.cellgate.deploy.cli.CommandException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The source maps of modules pushed as they are (a bundle file, {@code no_bundle}) with
 * {@code upload_source_maps}, found as Wrangler finds them: the module's last line
 * {@code //# sourceMappingURL=<path>} names a map file beside it (a {@code data:} URL is refused, as
 * Wrangler refuses it); the map is uploaded as {@code <module>.map} with {@code file} set to the
 * module's name and leading {@code ./} and {@code ../} stripped from its sources.
 */
final class SourceMaps {
    private static final String PREFIX = "//# sourceMappingURL=";

    private SourceMaps() {
    }

    /** Maps for the JavaScript modules among {@code modules} (name to bytes), read from beside {@code files} (name to file). */
    static Map<String, byte[]> scan(Map<String, byte[]> modules, Map<String, ModuleType> types, Map<String, Path> files) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> m : modules.entrySet()) {
            if (!types.getOrDefault(m.getKey(), ModuleType.ES_MODULE).isJavaScript() || !files.containsKey(m.getKey())) {
                continue;
            }
            String url = mappingUrl(new String(m.getValue(), StandardCharsets.UTF_8));
            if (url == null) {
                continue;
            }
            Path file = files.get(m.getKey());
            if (url.startsWith("data:")) {
                throw CommandException.refused("Unsupported source map path in " + file + ": expected file path but found data URL.");
            }
            Path map = file.toAbsolutePath().getParent().resolve(url).normalize();
            if (!Files.isRegularFile(map)) {
                throw CommandException.refused("Invalid source map path in " + file + ": " + map + " does not exist.");
            }
            try {
                JsonObject json = new JsonObject(Files.readString(map));
                json.put("file", m.getKey());
                JsonArray sources = new JsonArray();
                json.getJsonArray("sources", new JsonArray()).forEach(s -> sources.add(String.valueOf(s).replaceFirst("^(\\.{1,2}[/\\\\])+", "")));
                json.put("sources", sources);
                out.put(m.getKey() + ".map", json.encode().getBytes(StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException e) {
                throw CommandException.refused("source map " + map + " is not readable JSON: " + e.getMessage());
            }
        }
        return out;
    }

    /** The URL of the module's last non-blank line when it is a sourceMappingURL comment. */
    static String mappingUrl(String source) {
        String[] lines = source.stripTrailing().split("\n");
        String last = lines.length == 0 ? "" : lines[lines.length - 1];
        return last.startsWith(PREFIX) ? last.substring(PREFIX.length()).strip() : null;
    }
}
