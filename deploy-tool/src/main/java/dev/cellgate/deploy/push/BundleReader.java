package dev.cellgate.deploy.push;

import dev.cellgate.deploy.wrangler.WranglerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what {@code deploy-tool push} was given: a bundled module ({@code bundle.js}, optionally
 * with {@code --config}), or a Wrangler project directory whose {@code main} is a single module.
 * A project whose main imports other files must be bundled (esbuild) first.
 */
public final class BundleReader {
    private static final Pattern IMPORT = Pattern.compile("(?m)^\\s*(?:import|export)\\b[^'\"]*?from\\s*['\"]([^'\"]+)['\"]|^\\s*import\\s*['\"]([^'\"]+)['\"]");

    private BundleReader() {
    }

    public static Bundle read(Path target, Path configFile, String nameOverride) {
        if (!Files.exists(target)) {
            throw new IllegalArgumentException(target + " does not exist");
        }
        Path project = Files.isDirectory(target) ? target : target.toAbsolutePath().getParent();
        Path cfg = configFile != null ? configFile : findConfig(project, Files.isDirectory(target));
        WranglerConfig config = cfg == null
                ? WranglerConfig.parse(new io.vertx.core.json.JsonObject(), "(no wrangler config)")
                : WranglerConfig.read(cfg);
        Path mainFile;
        if (Files.isDirectory(target)) {
            if (config.main() == null) {
                throw new IllegalArgumentException((cfg == null ? target + " has no wrangler.jsonc/wrangler.json" : cfg + " has no \"main\""));
            }
            mainFile = cfg.getParent().resolve(config.main()).normalize();
        } else {
            mainFile = target;
        }
        byte[] source;
        try {
            source = Files.readAllBytes(mainFile);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read main module " + mainFile + ": " + e.getMessage());
        }
        String text = new String(source, java.nio.charset.StandardCharsets.UTF_8);
        Matcher m = IMPORT.matcher(text);
        while (m.find()) {
            String spec = m.group(1) != null ? m.group(1) : m.group(2);
            if (!spec.startsWith("cloudflare:")) {
                throw new IllegalArgumentException(mainFile + " imports '" + spec
                        + "': bundle the project first (esbuild --bundle --format=esm) and push the bundle");
            }
        }
        String name = nameOverride != null ? nameOverride : config.name() != null ? config.name()
                : mainFile.getFileName().toString().replaceAll("\\.[mc]?js$", "");
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,62}")) {
            throw new IllegalArgumentException("Worker name '" + name + "' must be letters, digits, - and _ (use --name)");
        }
        Map<String, byte[]> modules = new LinkedHashMap<>();
        String mainPath = mainFile.getFileName().toString();
        modules.put(mainPath, source);
        return new Bundle(config, name, mainPath, modules);
    }

    private static Path findConfig(Path dir, boolean required) {
        for (String n : new String[] {"wrangler.jsonc", "wrangler.json"}) {
            Path p = dir.resolve(n);
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        if (Files.isRegularFile(dir.resolve("wrangler.toml")) && required) {
            throw new IllegalArgumentException(dir + " has wrangler.toml: cellgate reads wrangler.jsonc or wrangler.json");
        }
        return null;
    }
}
