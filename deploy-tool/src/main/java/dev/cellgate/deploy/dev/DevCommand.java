package dev.cellgate.deploy.dev;

import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import dev.cellgate.deploy.cli.Args;
import dev.cellgate.deploy.cli.Command;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.ExitCodes;
import dev.cellgate.deploy.progress.Progress;
import dev.cellgate.deploy.push.Bundle;
import dev.cellgate.deploy.push.Push;
import dev.cellgate.deploy.wrangler.WranglerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code deploy-tool dev [DIR] [--port N] [--clean]}: the Wrangler project in DIR, deployed as
 * {@code push} deploys it ({@link Push}: same config reading, esbuild bundling and GraalJS load)
 * to a local bucket under {@code DIR/.cellgate/dev}, served by a node on 127.0.0.1, and deployed
 * again whenever a watched file is saved. Durable Object storage lives in that bucket, so it
 * survives reloads and restarts of dev; {@code --clean} starts from an empty one.
 */
public final class DevCommand implements Command {
    static final int DEFAULT_PORT = 8787;
    private static final long NODE_START_MS = 180_000;

    @Override
    public String name() {
        return "dev";
    }

    @Override
    public Set<String> valued() {
        return Set.of("port", "config", "env", "name");
    }

    @Override
    public Set<String> flags() {
        return Set.of("clean");
    }

    @Override
    public String usage() {
        return """
                  dev [DIR] [--port N] [--clean] [--config wrangler.jsonc] [--env NAME] [--name NAME]
                      Run the Wrangler project in DIR (default: .) on a local node and deploy it again on
                      every save. Listens on 127.0.0.1:N only (default 8787; 0 picks a free port), prints
                      each request and the Worker's console output. Durable Object state is kept in
                      DIR/.cellgate/dev across reloads and runs; --clean starts from none. Ctrl-C stops.
                """;
    }

    @Override
    public int run(Args args, Tool tool) {
        for (String notHere : List.of("bucket", "endpoint", "region")) {
            if (args.get(notHere) != null) {
                throw CommandException.usage("dev runs on its own local bucket (DIR/.cellgate/dev/bucket), so --" + notHere
                        + " does not apply; to deploy to a fleet's bucket use push");
            }
        }
        if (args.flag("json")) {
            throw CommandException.usage("dev prints for a person as things happen; --json does not apply (the node's JSON log is "
                    + "in DIR/.cellgate/dev/node.log)");
        }
        if (args.positional().size() > 1) {
            throw CommandException.usage("dev takes at most one project directory");
        }
        Path dir = Path.of(args.positional().isEmpty() ? "." : args.positional().get(0)).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw CommandException.refused(dir + " is not a directory (dev runs a Wrangler project directory)");
        }
        int port = port(args.get("port"));
        for (String local : List.of(".dev.vars", ".env")) {
            if (Files.exists(dir.resolve(local))) {
                throw CommandException.refused(dir.resolve(local) + ": dev does not read " + local + " yet (Wrangler's local secrets and "
                        + "vars); set each secret with: deploy-tool secret put NAME --bucket " + bucketUrl(stateDir(dir))
                        + " (or move the file away)");
            }
        }
        Path state = stateDir(dir);
        DevConsole console = new DevConsole(tool.env().out(), DevConsole.colourWanted(tool.env().get("DEPLOY_TOOL_STDOUT_TTY"),
                tool.env().get("NO_COLOR"), tool.env().get("TERM")));
        if (args.flag("clean")) {
            deleteTree(state);
            console.step("--clean: removed " + state + " (Durable Object state and earlier deployments)");
        }
        Path gatewayJar = GatewayJar.locate(tool.env());
        String bucketUrl = bucketUrl(state);
        try {
            Files.createDirectories(state.resolve("bucket"));
        } catch (IOException e) {
            throw CommandException.failed("cannot create " + state + ": " + e.getMessage(), e);
        }
        try (BucketStore store = new BucketStores(null).open(bucketUrl, new StoreOptions(Map.of("CELLD_FILE_FSYNC", "0")))) {
            Reloads reloads = new Reloads(dir, args, tool, store, console);
            reloads.deploy("starting");
            CountDownLatch stop = new CountDownLatch(1);
            StopSignals signals = StopSignals.install(stop::countDown);
            try (DevNode node = DevNode.start(gatewayJar, bucketUrl, state, tool.env().vars(), console)) {
                int nodePort = node.awaitListening(NODE_START_MS);
                try (DevProxy proxy = DevProxy.start("127.0.0.1", port, nodePort, console)) {
                    console.step("ready on http://127.0.0.1:" + proxy.port() + "/ (node log: " + state.resolve("node.log")
                            + "; state: " + state + "). Ctrl-C stops.");
                    Thread watcher = new Thread(() -> reloads.watch(), "dev-watch");
                    watcher.setDaemon(true);
                    watcher.start();
                    while (!stop.await(200, TimeUnit.MILLISECONDS)) {
                        if (!node.alive()) {
                            watcher.interrupt();
                            throw CommandException.failed("the node stopped by itself (exit code " + node.exitCode() + "); its last lines ("
                                    + state.resolve("node.log") + "):\n" + node.lastLines(), null);
                        }
                    }
                    watcher.interrupt();
                    console.step("stopping: the node drains and releases its Durable Objects (state stays in " + state + ")");
                }
            } finally {
                signals.restore();
            }
            console.step("stopped");
            return ExitCodes.OK;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CommandException.failed("interrupted", e);
        }
    }

    static Path stateDir(Path dir) {
        return dir.resolve(".cellgate").resolve("dev");
    }

    static String bucketUrl(Path state) {
        return "file://" + state.resolve("bucket").toAbsolutePath();
    }

    private static int port(String v) {
        if (v == null) {
            return DEFAULT_PORT;
        }
        try {
            int p = Integer.parseInt(v);
            if (p >= 0 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException ignored) {
            // refused below
        }
        throw CommandException.usage("--port must be a port number 0-65535 (0: any free port), got '" + v + "'");
    }

    private static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path x : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(x);
            }
        } catch (IOException e) {
            throw CommandException.failed("--clean: cannot remove " + p + ": " + e.getMessage(), e);
        }
    }

    /** The deploy-on-save loop: one deployment at a time, on the watcher's thread. */
    private static final class Reloads {
        private final Path dir;
        private final Args args;
        private final Tool tool;
        private final BucketStore store;
        private final DevConsole console;
        private final Set<String> notesShown = new HashSet<>();
        private volatile List<Path> roots;
        private volatile boolean ranBuild;
        private String serving;

        Reloads(Path dir, Args args, Tool tool, BucketStore store, DevConsole console) {
            this.dir = dir;
            this.args = args;
            this.tool = tool;
            this.store = store;
            this.console = console;
            this.roots = List.of(dir);
        }

        /** Bundles, checks and publishes the project; a refusal is printed and the deployment in the bucket stays current. */
        void deploy(String why) {
            long t0 = System.nanoTime();
            try {
                // the node loads it in GraalJS, as push's check would, and keeps the previous deployment if that fails
                Bundle bundle = Push.read(dir, args.get("config") == null ? null : Path.of(args.get("config")), args.get("name"),
                        args.get("env"), List.of(), tool.env(), this::note);
                roots = watchRoots(bundle.config());
                ranBuild = bundle.config().build() != null;
                Push.Published p = Push.publish(store, bundle, Progress.OFF);
                serving = p.result().current();
                console.deployed(serving, t0, "deployed " + bundle.name() + " as " + serving + " (" + why + "; "
                        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) + " ms to bundle and publish)");
            } catch (CommandException e) {
                console.problem(e.getMessage());
                console.step(serving != null ? "still serving " + serving + "; fix it and save again"
                        : "nothing deployed by this run yet: the node serves what the dev bucket held before, if anything; fix it and save again");
            } catch (RuntimeException e) {
                console.problem(why + " failed: " + e);
            }
        }

        void watch() {
            SourceWatch w = new SourceWatch(roots);
            List<Path> watched = roots;
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    int changed = w.awaitChange();
                    deploy(changed + " file(s) changed");
                    if (!roots.equals(watched)) {
                        watched = roots;
                        w = new SourceWatch(watched);
                    } else if (ranBuild) {
                        // what a build.command wrote under the watched files is not a change to deploy again
                        // (a save during that build is then seen with the next one); without one, a save made
                        // while dev deployed is a change against what was deployed, and deploys again
                        w.settle();
                    }
                }
            } catch (InterruptedException e) {
                // dev is stopping
            }
        }

        private void note(String line) {
            if (notesShown.add(line)) {
                console.step(line);
            }
        }

        /** {@code build.watch_dir} (relative to the config) and the config itself when set, else the whole project. */
        private List<Path> watchRoots(WranglerConfig config) {
            if (config.build() == null || config.build().watchDirs().isEmpty()) {
                return List.of(dir);
            }
            Path cfgDir = args.get("config") == null ? dir : Path.of(args.get("config")).toAbsolutePath().getParent();
            List<Path> r = new ArrayList<>();
            config.build().watchDirs().forEach(d -> r.add(cfgDir.resolve(d).normalize()));
            for (String n : new String[] {"wrangler.json", "wrangler.jsonc", "wrangler.toml"}) {
                if (Files.isRegularFile(cfgDir.resolve(n))) {
                    r.add(cfgDir.resolve(n));
                }
            }
            if (args.get("config") != null) {
                r.add(Path.of(args.get("config")).toAbsolutePath());
            }
            return List.copyOf(r);
        }
    }
}
