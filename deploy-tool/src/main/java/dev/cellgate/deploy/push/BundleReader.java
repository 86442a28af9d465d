package dev.cellgate.deploy.push;

import dev.cellgate.core.logic.NodeCompat;
import dev.cellgate.core.spi.js.ModuleType;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.Env;
import dev.cellgate.deploy.wrangler.AssetsKey;
import dev.cellgate.deploy.wrangler.ServicesKey;
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
import java.util.function.Consumer;

/**
 * Reads what {@code deploy-tool push} was given, as Wrangler would upload it:
 * <ul>
 *   <li>{@code push bundle.js}: the bundle as it is, plus the modules beside it that the module
 *       rules type (Wrangler's {@code --no-bundle}), with {@code --config} or a
 *       {@code wrangler.json}/{@code wrangler.jsonc}/{@code wrangler.toml} beside it;</li>
 *   <li>{@code push DIR}: a Wrangler project. Its {@code build.command} runs first; its {@code main} is bundled with esbuild (imports of
 *       files the rules type stay separate modules; with {@code find_additional_modules}, the
 *       modules found under {@code base_dir} too), or with {@code no_bundle} pushed as it is with
 *       the modules found under {@code base_dir}.</li>
 * </ul>
 * Which modules a module imports is never guessed from its text: esbuild parses the project, and
 * the load check ({@link LoadCheck}) parses every module in GraalJS, refusing a static import of a
 * module the bundle lacks with workerd's "No such module" error.
 */
public final class BundleReader {
    private BundleReader() {
    }

    public static Bundle read(Path target, Path configFile, String nameOverride, Env env, Consumer<String> note) {
        return read(target, configFile, nameOverride, null, env, note);
    }

    /** @param environment the Wrangler environment ({@code --env}), null for the top level */
    public static Bundle read(Path target, Path configFile, String nameOverride, String environment, Env env,
                              Consumer<String> note) {
        if (!Files.exists(target)) {
            throw CommandException.refused(target + " does not exist");
        }
        if (configFile != null) {
            WorkerTarget.existing(configFile);
        }
        boolean project = Files.isDirectory(target);
        Path dir = project ? target : target.toAbsolutePath().getParent();
        Path cfg = configFile != null ? configFile : WorkerTarget.configIn(dir);
        if (project && cfg == null) {
            throw CommandException.refused(target + " has no wrangler.json, wrangler.jsonc or wrangler.toml");
        }
        if (!project && cfg != null && configFile == null) {
            note.accept("using " + cfg + " (found beside the bundle; --config names another)");
        }
        if (cfg == null && environment != null) {
            throw CommandException.refused("--env " + environment + " needs a Wrangler config (none beside " + target + ")");
        }
        WranglerConfig config = WorkerTarget.readConfig(cfg, environment);
        config.notes().forEach(note);
        if (cfg != null) {
            BuildStep.run(config.build(), cfg.toAbsolutePath().getParent(), env, note);
        }
        WranglerConfig.Modules mc = config.modules();
        if ((!project || mc.noBundle()) && !config.bundling().set().isEmpty()) {
            note.accept("note: " + String.join(", ", config.bundling().set()) + " only change(s) what esbuild bundles, and "
                    + (project ? "no_bundle" : "a bundle file") + " is pushed as it is (as Wrangler does)");
        }
        ModuleRules rules;
        try {
            rules = ModuleRules.parse(mc.rules());
        } catch (IllegalArgumentException e) {
            throw CommandException.refused((cfg == null ? "config" : cfg.toString()) + ": " + e.getMessage());
        }
        NodeCompat node = NodeCompat.of(config.compatibilityDate() == null ? "" : config.compatibilityDate(),
                config.compatibilityFlags());
        Map<String, byte[]> modules = new LinkedHashMap<>();
        Map<String, ModuleType> types = new LinkedHashMap<>();
        String main;
        String origin;
        if (project && config.main() == null) {
            if (config.assets() == null) {
                throw CommandException.refused(cfg + " has no \"main\"");
            }
            refuseWhatNeedsAWorker(cfg, config.assets());
            main = AssetsOnlyWorker.MODULE;
            modules.put(main, AssetsOnlyWorker.SOURCE);
            origin = "assets only (no \"main\"): the assets answer every request, a miss by not_found_handling";
        } else if (project) {
            Path cfgDir = cfg.toAbsolutePath().getParent();
            Path mainFile = cfgDir.resolve(config.main()).normalize();
            byte[] source = readFile(mainFile, "main module");
            Path moduleRoot = mc.baseDir() != null ? cfgDir.resolve(mc.baseDir()).normalize() : mainFile.getParent();
            if (mc.noBundle()) {
                main = mainFile.getFileName().toString();
                modules.put(main, source);
                Map<String, BundleFiles.Found> found = BundleFiles.find(moduleRoot, rules, mainFile, cfg);
                addFound(found, modules, types, main);
                origin = "no_bundle: " + config.main() + " as it is, with " + (modules.size() - 1) + " additional module(s)";
                addSourceMaps(mc, modules, types, main, mainFile, moduleRoot, found);
            } else {
                Map<String, BundleFiles.Found> additional = mc.findAdditionalModules()
                        ? BundleFiles.find(moduleRoot, rules, mainFile, cfg) : Map.of();
                Map<String, ModuleType> copied;
                try {
                    copied = rules.copiedExtensions();
                } catch (IllegalArgumentException e) {
                    throw CommandException.refused(cfg + ": " + e.getMessage());
                }
                Esbuild esbuild = Esbuild.locate(env, dir);
                String version = esbuild.version();
                note.accept("bundling " + config.main() + " with esbuild " + version + " (" + esbuild.binary() + ", via "
                        + esbuild.foundVia() + ")");
                Esbuild.Output out = esbuild.bundle(dir, mainFile,
                        new Esbuild.Options(copied, List.copyOf(additional.keySet()), mc.uploadSourceMaps(), node,
                                config.bundling(), cfgDir));
                main = mainFile.getFileName().toString().replaceAll("\\.[A-Za-z]+$", "") + ".js";
                modules.put(main, out.bundle());
                for (Map.Entry<String, byte[]> c : out.copied().entrySet()) {
                    String ext = c.getKey().substring(c.getKey().lastIndexOf('.'));
                    modules.put(c.getKey(), c.getValue());
                    types.put(c.getKey(), copied.get(ext));
                }
                addFound(additional, modules, types, main);
                if (out.sourceMap() != null) {
                    modules.put(main + ".map", out.sourceMap());
                    types.put(main + ".map", ModuleType.SOURCE_MAP);
                }
                origin = "bundled " + config.main() + " with esbuild " + version
                        + (modules.size() > 1 ? " (" + modules.size() + " modules)" : "");
            }
        } else {
            byte[] source = readFile(target, "bundle");
            main = target.getFileName().toString();
            modules.put(main, source);
            Map<String, BundleFiles.Found> found = BundleFiles.find(dir, rules, target, cfg);
            addFound(found, modules, types, main);
            origin = "bundle " + target.getFileName() + (modules.size() > 1 ? " with " + (modules.size() - 1) + " additional module(s)" : "");
            addSourceMaps(mc, modules, types, main, target, dir, found);
        }
        for (Map.Entry<String, byte[]> m : modules.entrySet()) {
            if (types.getOrDefault(m.getKey(), ModuleType.ES_MODULE).isText()) {
                utf8(m.getValue(), Path.of(m.getKey()));
            }
        }
        String name = WorkerTarget.name(nameOverride, config, main.replaceAll("\\.[mc]?js$", ""));
        String otherWorkers = ServicesKey.refusalOfOthers(config.bindings(), name);
        if (otherWorkers != null) {
            throw CommandException.refused((cfg == null ? "config" : cfg.toString()) + ": " + otherWorkers);
        }
        AssetsDirectory assets = null;
        if (config.assets() != null) {
            Path base = cfg == null ? dir : cfg.toAbsolutePath().getParent();
            assets = AssetsDirectory.scan(base.resolve(config.assets().directory()).normalize(), note);
        }
        return new Bundle(config, name, main, modules, List.of(), origin, types, assets);
    }

    /** With upload_source_maps, the maps named by the sourceMappingURL of modules pushed as they are. */
    private static void addSourceMaps(WranglerConfig.Modules mc, Map<String, byte[]> modules, Map<String, ModuleType> types,
                                      String main, Path mainFile, Path root, Map<String, BundleFiles.Found> found) {
        if (!mc.uploadSourceMaps()) {
            return;
        }
        Map<String, Path> files = new LinkedHashMap<>();
        files.put(main, mainFile);
        found.keySet().forEach(name -> files.put(name, root.resolve(name)));
        for (Map.Entry<String, byte[]> m : SourceMaps.scan(modules, types, files).entrySet()) {
            modules.put(m.getKey(), m.getValue());
            types.put(m.getKey(), ModuleType.SOURCE_MAP);
        }
    }

    private static void addFound(Map<String, BundleFiles.Found> found, Map<String, byte[]> modules, Map<String, ModuleType> types,
                                 String main) {
        for (Map.Entry<String, BundleFiles.Found> f : found.entrySet()) {
            if (f.getKey().equals(main)) {
                throw CommandException.refused("module " + f.getKey() + " has the main module's name");
            }
            modules.put(f.getKey(), f.getValue().bytes());
            types.put(f.getKey(), f.getValue().type());
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

    /** What Wrangler refuses in an assets-only project: both need the Worker there is not. */
    private static void refuseWhatNeedsAWorker(Path cfg, AssetsKey assets) {
        if (assets.binding() != null) {
            throw CommandException.refused(cfg + ": assets.binding \"" + assets.binding() + "\" needs a Worker, and this project has "
                    + "no \"main\" (assets only), as on Cloudflare: remove assets.binding, or set \"main\"");
        }
        if (assets.runWorkerFirst() || !assets.runWorkerFirstRoutes().isEmpty()) {
            throw CommandException.refused(cfg + ": assets.run_worker_first needs a Worker, and this project has no \"main\" "
                    + "(assets only), as on Cloudflare: remove run_worker_first, or set \"main\"");
        }
    }
}
