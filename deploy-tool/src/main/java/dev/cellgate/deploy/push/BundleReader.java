package dev.cellgate.deploy.push;

import dev.cellgate.core.logic.NodeCompat;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.Env;
import dev.cellgate.deploy.wrangler.WranglerConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what {@code deploy-tool push} was given, refusing anything a node could not run:
 * <ul>
 *   <li>{@code push bundle.js}: one self-contained ES module (it may import {@code cloudflare:*}
 *       only), with {@code --config} or a {@code wrangler.jsonc}/{@code wrangler.json} beside it;</li>
 *   <li>{@code push DIR}: a Wrangler project. Its {@code main} is pushed as it is when it is a
 *       JavaScript module that imports nothing; anything else (relative or package imports,
 *       TypeScript) is bundled with esbuild first.</li>
 * </ul>
 */
public final class BundleReader {
    private static final Pattern IMPORT = Pattern.compile(
            "(?m)^\\s*(?:import|export)\\b[^'\";]*?\\bfrom\\s*['\"]([^'\"]+)['\"]"
                    + "|^\\s*import\\s*['\"]([^'\"]+)['\"]"
                    + "|\\bimport\\s*\\(\\s*['\"]([^'\"]+)['\"]\\s*\\)"
                    + "|\\brequire\\s*\\(\\s*['\"]([^'\"]+)['\"]\\s*\\)");
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,62}");

    private BundleReader() {
    }

    public static Bundle read(Path target, Path configFile, String nameOverride, Env env, Consumer<String> note) {
        if (!Files.exists(target)) {
            throw CommandException.refused(target + " does not exist");
        }
        if (configFile != null && !Files.isRegularFile(configFile)) {
            throw CommandException.refused("config " + configFile + " does not exist");
        }
        boolean project = Files.isDirectory(target);
        Path dir = project ? target : target.toAbsolutePath().getParent();
        Path cfg = configFile != null ? configFile : findConfig(dir, project);
        if (project && cfg == null) {
            throw CommandException.refused(target + " has no wrangler.jsonc or wrangler.json");
        }
        if (!project && cfg != null && configFile == null) {
            note.accept("using " + cfg + " (found beside the bundle; --config names another)");
        }
        WranglerConfig config = read(cfg);
        NodeCompat node = NodeCompat.of(config.compatibilityDate() == null ? "" : config.compatibilityDate(),
                config.compatibilityFlags());
        Map<String, byte[]> modules = new LinkedHashMap<>();
        String main;
        String origin;
        if (project) {
            if (config.main() == null) {
                throw CommandException.refused(cfg + " has no \"main\"");
            }
            Path mainFile = cfg.toAbsolutePath().getParent().resolve(config.main()).normalize();
            byte[] source = readFile(mainFile, "main module");
            Set<String> imports = isJs(mainFile) ? imports(utf8(source, mainFile)) : Set.of("(not plain JavaScript)");
            imports.removeAll(NodeImports.allowed(imports, node)); // the runtime provides these
            if (imports.isEmpty()) {
                main = mainFile.getFileName().toString();
                modules.put(main, source);
                origin = "single module " + config.main() + " (imports nothing, pushed as is)";
            } else {
                Esbuild esbuild = Esbuild.locate(env, dir);
                String version = esbuild.version();
                note.accept("bundling " + config.main() + " with esbuild " + version + " (" + esbuild.binary() + ", via "
                        + esbuild.foundVia() + ")");
                main = mainFile.getFileName().toString().replaceAll("\\.[A-Za-z]+$", "") + ".js";
                modules.put(main, esbuild.bundle(dir, mainFile, node));
                origin = "bundled " + config.main() + " with esbuild " + version;
            }
        } else {
            byte[] source = readFile(target, "bundle");
            Set<String> imports = imports(utf8(source, target));
            Set<String> refusedNode = NodeImports.refused(imports, node);
            if (!refusedNode.isEmpty()) {
                throw CommandException.refused(target + " imports " + refusedNode + NodeImports.explain(
                        refusedNode.stream().map(n -> "Could not resolve \"" + n + "\"").reduce("", String::concat), node));
            }
            imports.removeAll(NodeImports.allowed(imports, node)); // the runtime provides these
            if (!imports.isEmpty()) {
                throw CommandException.refused(target + " imports " + imports + ": a bundle must be one self-contained module. "
                        + "Push the project directory (bundled with esbuild) or bundle it first (esbuild --bundle --format=esm)");
            }
            main = target.getFileName().toString();
            modules.put(main, source);
            origin = "bundle " + target.getFileName();
        }
        for (Map.Entry<String, byte[]> m : modules.entrySet()) {
            utf8(m.getValue(), Path.of(m.getKey()));
        }
        String name = nameOverride != null ? nameOverride : config.name() != null ? config.name()
                : main.replaceAll("\\.[mc]?js$", "");
        if (!NAME.matcher(name).matches()) {
            throw CommandException.refused("Worker name '" + name + "' must be 1-63 letters, digits, - and _, starting with a "
                    + "letter or digit (set \"name\" in the config or use --name)");
        }
        return new Bundle(config, name, main, modules, List.of(), origin);
    }

    /** Module specifiers other than {@code cloudflare:*} that {@code source} imports or requires. */
    static Set<String> imports(String source) {
        Set<String> out = new TreeSet<>();
        Matcher m = IMPORT.matcher(source);
        while (m.find()) {
            for (int g = 1; g <= 4; g++) {
                String spec = m.group(g);
                if (spec != null && !spec.startsWith("cloudflare:")) {
                    out.add(spec);
                }
            }
        }
        return out;
    }

    private static boolean isJs(Path p) {
        String n = p.getFileName().toString();
        return n.endsWith(".js") || n.endsWith(".mjs");
    }

    private static WranglerConfig read(Path cfg) {
        try {
            return cfg == null ? WranglerConfig.parse(new io.vertx.core.json.JsonObject(), "(no wrangler config)") : WranglerConfig.read(cfg);
        } catch (IllegalArgumentException e) {
            throw CommandException.refused(e.getMessage());
        }
    }

    private static byte[] readFile(Path p, String what) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw CommandException.refused("cannot read " + what + " " + p + ": " + e);
        }
    }

    /** Modules are text: refuse bytes that are not UTF-8 rather than let a node decode them into something else. */
    private static String utf8(byte[] bytes, Path where) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw CommandException.refused(where + " is not UTF-8 text");
        }
    }

    private static Path findConfig(Path dir, boolean project) {
        for (String n : new String[] {"wrangler.jsonc", "wrangler.json"}) {
            Path p = dir.resolve(n);
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        if (project && Files.isRegularFile(dir.resolve("wrangler.toml"))) {
            throw CommandException.refused(dir + " has wrangler.toml: cellgate reads wrangler.jsonc or wrangler.json "
                    + "(the same keys, as JSON)");
        }
        return null;
    }
}
