package dev.cellgate.deploy.push;

import dev.cellgate.core.spi.js.ModuleType;
import dev.cellgate.deploy.cli.CommandException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Wrangler's additional modules: every file under the module root that a rule types, named by its
 * path from the root, except the entry point, the config file and the {@code .wrangler} directory
 * (as Wrangler's {@code findAdditionalModules}).
 */
final class BundleFiles {
    private BundleFiles() {
    }

    record Found(ModuleType type, byte[] bytes) {
    }

    static Map<String, Found> find(Path root, ModuleRules rules, Path entry, Path config) {
        Map<String, Found> out = new LinkedHashMap<>();
        Path r = root.toAbsolutePath().normalize();
        Path skipEntry = entry.toAbsolutePath().normalize();
        Path skipConfig = config == null ? null : config.toAbsolutePath().normalize();
        try (Stream<Path> walk = Files.walk(r)) {
            for (Path f : walk.filter(Files::isRegularFile).sorted().toList()) {
                Path abs = f.toAbsolutePath().normalize();
                String rel = r.relativize(abs).toString().replace('\\', '/');
                if (abs.equals(skipEntry) || abs.equals(skipConfig) || rel.startsWith(".wrangler/")) {
                    continue;
                }
                ModuleType t;
                try {
                    t = rules.typeOf(rel);
                } catch (IllegalArgumentException e) {
                    throw CommandException.refused(e.getMessage());
                }
                if (t != null) {
                    out.put(rel, new Found(t, Files.readAllBytes(f)));
                }
            }
        } catch (IOException e) {
            throw CommandException.refused("cannot read the modules under " + r + ": " + e.getMessage());
        }
        return out;
    }
}
