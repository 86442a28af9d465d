package dev.cellgate.deploy.push;

import dev.cellgate.core.logic.NodeCompat;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.Env;
import dev.cellgate.deploy.wrangler.WranglerConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Bundles a Wrangler project's entry module with esbuild, the way Wrangler does for Workers: one
 * ES module, {@code cloudflare:*} left to the runtime, the {@code workerd}/{@code worker}/
 * {@code browser} package conditions.
 *
 * <p>The binary is found, in order: {@code CELLD_ESBUILD} (must exist when set: a wrong path is an
 * error, not a reason to look elsewhere); the project's {@code node_modules/.bin/esbuild}; {@code esbuild}
 * on {@code PATH}; the repository's {@code .ci/npm-tools/node_modules/.bin/esbuild} (or under
 * {@code CELLGATE_NPM_TOOLS}) that {@code .ci/npm-tools.sh} installs.
 */
public final class Esbuild {
    static final long TIMEOUT_S = 120;

    private final Path binary;
    private final String foundVia;

    private Esbuild(Path binary, String foundVia) {
        // Absolute: esbuild runs in the project directory (and --version beside itself), where a path
        // relative to the tool's working directory ("dc/node_modules/.bin/esbuild") means nothing.
        this.binary = binary.toAbsolutePath().normalize();
        this.foundVia = foundVia;
    }

    public Path binary() {
        return binary;
    }

    public String foundVia() {
        return foundVia;
    }

    public static Esbuild locate(Env env, Path projectDir) {
        String set = env.get("CELLD_ESBUILD");
        if (set != null) {
            Path p = Path.of(set);
            if (!Files.isRegularFile(p) || !Files.isExecutable(p)) {
                throw CommandException.refused("CELLD_ESBUILD=" + set + " is not an executable file");
            }
            return new Esbuild(p, "CELLD_ESBUILD");
        }
        Path local = projectDir.resolve("node_modules/.bin/esbuild");
        if (Files.isExecutable(local)) {
            return new Esbuild(local, "the project's node_modules");
        }
        String path = env.get("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                Path p = dir.isEmpty() ? null : Path.of(dir, "esbuild");
                if (p != null && Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return new Esbuild(p, "PATH");
                }
            }
        }
        Path tools = npmTools(env);
        if (tools != null && Files.isExecutable(tools.resolve("node_modules/.bin/esbuild"))) {
            return new Esbuild(tools.resolve("node_modules/.bin/esbuild"), tools.toString());
        }
        throw CommandException.refused("esbuild is needed to bundle " + projectDir + " and was not found. Get it one of these ways:\n"
                + "  - run .ci/npm-tools.sh in the cellgate repository (installs esbuild 0.28.2 under .ci/npm-tools)\n"
                + "  - npm install --save-dev esbuild   (in the project)\n"
                + "  - npm install -g esbuild, or put an esbuild binary on PATH\n"
                + "  - set CELLD_ESBUILD=/path/to/esbuild\n"
                + "or bundle it yourself (esbuild --bundle --format=esm) and push the bundle file");
    }

    /** {@code CELLGATE_NPM_TOOLS}, else {@code <repo>/.ci/npm-tools} when this tool runs from a checkout. */
    private static Path npmTools(Env env) {
        String set = env.get("CELLGATE_NPM_TOOLS");
        if (set != null) {
            return Path.of(set);
        }
        try {
            // deploy-tool/target/deploy-tool.jar or deploy-tool/target/classes: the checkout is three levels up.
            Path code = Path.of(Esbuild.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path root = code.getParent() == null || code.getParent().getParent() == null ? null : code.getParent().getParent().getParent();
            return root == null ? null : root.resolve(".ci/npm-tools");
        } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
            return null;
        }
    }

    /** Versions already asked, by binary and its modification time: {@code dev} bundles on every save, and each ask is a process. */
    private static final java.util.Map<String, String> VERSIONS = new java.util.concurrent.ConcurrentHashMap<>();

    public String version() {
        String key;
        try {
            key = binary.toRealPath() + "@" + Files.getLastModifiedTime(binary.toRealPath()).toMillis();
        } catch (java.io.IOException e) {
            key = null;
        }
        String known = key == null ? null : VERSIONS.get(key);
        if (known != null) {
            return known;
        }
        Run r = run(List.of(binary.toString(), "--version"), binary.getParent() == null ? Path.of(".") : binary.getParent());
        if (r.exit != 0) {
            throw CommandException.refused(binary + " --version failed (exit " + r.exit + "): " + r.output.strip());
        }
        String v = r.output.strip();
        if (key != null) {
            VERSIONS.put(key, v);
        }
        return v;
    }

    /**
     * How to bundle, from the Wrangler config: the file extensions whose imports stay separate
     * modules (copied beside the bundle, as Wrangler's module collector does: rules), the modules
     * found with {@code find_additional_modules} (left as imports, by their path from the module root),
     * whether to write a source map ({@code upload_source_maps}), and the Worker's Node.js
     * compatibility, which decides how Node built-ins resolve ({@link NodeImports}), and the config's
     * bundler keys ({@code define, alias, tsconfig, minify, keep_names, jsx_*}), paths in them
     * relative to {@code configDir}.
     */
    public record Options(java.util.Map<String, dev.cellgate.core.spi.js.ModuleType> copied, List<String> additional,
                          boolean sourceMap, NodeCompat node, WranglerConfig.Bundling bundling, Path configDir) {
        public Options(java.util.Map<String, dev.cellgate.core.spi.js.ModuleType> copied, List<String> additional,
                       boolean sourceMap, NodeCompat node) {
            this(copied, additional, sourceMap, node, WranglerConfig.Bundling.NONE, Path.of("."));
        }
    }

    /** esbuild's output: the bundle, the files it copied beside it, and its source map (null without one). */
    public record Output(byte[] bundle, java.util.Map<String, byte[]> copied, byte[] sourceMap) {
    }

    /**
     * Bundles {@code entry} into one ES module (and the typed modules it imports, copied beside it);
     * a build error is a refusal carrying esbuild's own message, and for a Node built-in it could not
     * resolve, what the Worker's compatibility would need.
     */
    public Output bundle(Path projectDir, Path entry, Options options) {
        Path out = null;
        try {
            out = Files.createTempDirectory("deploy-tool-esbuild-");
            Path file = out.resolve("bundle.js");
            List<String> cmd = command(entry, out, options);
            Run r = run(cmd, projectDir);
            if (r.exit != 0 || !Files.isRegularFile(file)) {
                throw CommandException.refused("esbuild could not bundle " + entry + " (exit " + r.exit + "):\n" + r.output.strip()
                        + NodeImports.explain(r.output, options.node()));
            }
            java.util.Set<String> required = NodeImports.required(Files.readString(file));
            if (!required.isEmpty()) {
                // CommonJS code require()s Node built-ins: bundle again with a require() that answers them
                // (the same command, so the copied modules and the source map match the final bundle).
                cmd.add("--banner:js=" + NodeImports.requireBanner(required));
                r = run(cmd, projectDir);
                if (r.exit != 0) {
                    throw CommandException.refused("esbuild could not bundle " + entry + " (exit " + r.exit + "):\n" + r.output.strip());
                }
            }
            java.util.Map<String, byte[]> copied = new java.util.TreeMap<>();
            try (Stream<Path> files = Files.list(out)) {
                for (Path f : files.toList()) {
                    String n = f.getFileName().toString();
                    if (!n.equals("bundle.js") && !n.equals("bundle.js.map")) {
                        copied.put(n, Files.readAllBytes(f));
                    }
                }
            }
            Path map = out.resolve("bundle.js.map");
            return new Output(Files.readAllBytes(file), copied, Files.isRegularFile(map) ? projectRelative(map, projectDir) : null);
        } catch (IOException e) {
            throw CommandException.failed("esbuild output could not be read: " + e.getMessage(), e);
        } finally {
            deleteTree(out);
        }
    }

    /** The map's sources named from the project directory ({@code src/lib/deep.ts}), as Wrangler uploads them. */
    private static byte[] projectRelative(Path map, Path projectDir) throws IOException {
        io.vertx.core.json.JsonObject m = new io.vertx.core.json.JsonObject(Files.readString(map));
        io.vertx.core.json.JsonArray sources = new io.vertx.core.json.JsonArray();
        Path root = projectDir.toAbsolutePath().normalize();
        for (Object src : m.getJsonArray("sources", new io.vertx.core.json.JsonArray())) {
            Path abs = map.getParent().resolve(String.valueOf(src)).normalize();
            sources.add(abs.startsWith(root) ? root.relativize(abs).toString().replace('\\', '/') : String.valueOf(src));
        }
        m.put("sources", sources).remove("sourceRoot");
        return m.encode().getBytes(StandardCharsets.UTF_8);
    }

    /** The esbuild command line, in one place (what every bundle gets, then what the config and the compatibility ask). */
    private List<String> command(Path entry, Path out, Options options) {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), entry.toAbsolutePath().toString(),
                "--bundle", "--format=esm", "--platform=neutral", "--target=es2022",
                "--main-fields=module,main", "--conditions=workerd,worker,browser",
                "--external:cloudflare:*", "--charset=utf8", "--log-level=warning",
                "--outdir=" + out, "--entry-names=bundle"));
        cmd.addAll(NodeImports.esbuildArgs(options.node()));
        for (String ext : options.copied().keySet()) {
            cmd.add("--loader:" + ext + "=copy");
        }
        if (!options.copied().isEmpty()) {
            cmd.add("--asset-names=[name]-[hash]");
        }
        for (String module : options.additional()) {
            // a pattern, so the import stays as written (relative to the module root, as Wrangler leaves it)
            cmd.add("--external:./" + module + "*");
        }
        if (options.sourceMap()) {
            cmd.add("--sourcemap");
        }
        cmd.addAll(bundlingArgs(options.bundling(), options.configDir()));
        return cmd;
    }

    /**
     * The config's bundler keys as esbuild flags, as Wrangler passes them: {@code define} values are
     * JavaScript expressions; an {@code alias} or {@code tsconfig} path is relative to the config
     * (made absolute, since esbuild would read it from its working directory); {@code keep_names}
     * is on unless the config says false.
     */
    static List<String> bundlingArgs(WranglerConfig.Bundling b, Path configDir) {
        List<String> out = new ArrayList<>();
        b.define().forEach((k, v) -> out.add("--define:" + k + "=" + v));
        b.alias().forEach((k, v) -> out.add("--alias:" + k + "=" + (v.startsWith("./") || v.startsWith("../")
                ? configDir.resolve(v).toAbsolutePath().normalize().toString() : v)));
        if (b.tsconfig() != null) {
            Path ts = configDir.resolve(b.tsconfig()).toAbsolutePath().normalize();
            if (!Files.isRegularFile(ts)) {
                throw CommandException.refused("tsconfig " + b.tsconfig() + " (" + ts + ") does not exist");
            }
            out.add("--tsconfig=" + ts);
        }
        if (b.minify()) {
            out.add("--minify");
        }
        if (b.keepNames()) {
            out.add("--keep-names");
        }
        if (b.jsxFactory() != null) {
            out.add("--jsx-factory=" + b.jsxFactory());
        }
        if (b.jsxFragment() != null) {
            out.add("--jsx-fragment=" + b.jsxFragment());
        }
        return out;
    }

    private record Run(int exit, String output) {
    }

    private static Run run(List<String> cmd, Path dir) {
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
            p.getOutputStream().close();
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            Thread pump = new Thread(() -> copy(p.getInputStream(), buf), "esbuild-output");
            pump.start();
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw CommandException.refused("esbuild did not finish within " + TIMEOUT_S + " s: " + String.join(" ", cmd));
            }
            pump.join(5000);
            synchronized (buf) {
                return new Run(p.exitValue(), buf.toString(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw CommandException.refused("could not run " + cmd.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CommandException.failed("interrupted while esbuild ran", e);
        }
    }

    private static void copy(InputStream in, ByteArrayOutputStream buf) {
        byte[] b = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(b)) > 0) {
                synchronized (buf) {
                    buf.write(b, 0, n);
                }
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }

    private static void deleteTree(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp dir left behind is harmless
        }
    }
}
