package dev.cellgate.gateway;

import dev.cellgate.core.config.ConfigException;
import dev.cellgate.core.config.ConfigLoader;
import dev.cellgate.core.config.NodeConfig;
import dev.cellgate.core.config.Settings;
import dev.cellgate.gateway.launch.JitLauncher;
import dev.cellgate.gateway.node.ExitCodes;
import dev.cellgate.gateway.node.Node;
import java.nio.file.Path;

/**
 * {@code java -jar gateway.jar [-conf node.json]}: validates the configuration, then runs a node
 * until it stops, and exits with the node's exit code.
 */
public final class Main {
    /** Why this JVM runs without a JIT relaunch (empty when relaunched or already JIT-enabled). */
    public static final String LAUNCH_NOTE = "cellgate.launch.note";

    private Main() {
    }

    /** When {@code main} began in this JVM (epoch ms; 0 when the node was started another way): the startup timeline's. */
    private static volatile long enteredMs;

    public static void main(String[] args) {
        enteredMs = System.currentTimeMillis();
        Path conf = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-conf", "--conf", "-c" -> {
                    if (i + 1 >= args.length) {
                        fail("-conf needs a file: java -jar gateway.jar -conf node.json");
                    }
                    conf = Path.of(args[++i]);
                }
                case "--help", "-h", "help" -> {
                    System.out.print(usage());
                    System.exit(0);
                }
                case "--version" -> {
                    System.out.println("cellgate " + Version.text());
                    System.exit(0);
                }
                default -> fail("unknown argument '" + args[i] + "' (try --help)");
            }
        }
        NodeConfig config;
        try {
            config = ConfigLoader.load(conf, System.getenv());
            config.requestCf(); // CELLD_CF_HEADERS is parsed here so that a bad mapping stops the start
        } catch (ConfigException e) {
            fail(e.getMessage());
            return;
        }
        Distribution dist = Distribution.locate();
        Path jar = JitLauncher.startedJar(dist.home(), dist.fromJar());
        String notRelaunching = JitLauncher.reasonNotToRelaunch(jar, dist.jvmciDir(), config.jit());
        if (notRelaunching == null) {
            try {
                System.exit(JitLauncher.relaunch(jar, dist.jvmciDir(), args));
            } catch (Exception e) {
                System.err.println("cellgate: could not start the JIT-enabled JVM (" + e + "); running interpreted");
                notRelaunching = "relaunch failed: " + e.getMessage();
            }
        }
        // Before the first logger exists: the layout reads the format once.
        System.setProperty("cellgate.log.format", config.logFormat().orElse("json"));
        System.setProperty(LAUNCH_NOTE, notRelaunching == null ? "" : notRelaunching);
        int code = Node.run(config, dist);
        // The node has released everything and logged node.stopped: halt rather than run JVM
        // shutdown hooks (engine and thread-pool teardown took ~1 s and cannot change the outcome).
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(code);
    }

    /** When {@code main} began in this JVM, or 0 when it did not run (a node started by a test). */
    public static long enteredMs() {
        return enteredMs;
    }

    private static void fail(String message) {
        System.err.println("cellgate: " + message);
        System.exit(ExitCodes.CONFIG);
    }

    static String usage() {
        return """
                Usage: java -jar gateway.jar [-conf node.json]

                Runs one cellgate node. Without -conf, the embedded defaults apply: a local directory
                bucket (file://./cellgate-data/bucket) and the public listener on 127.0.0.1:8080.
                node.json holds the settings below by key; environment variables override it.

                """ + Settings.help() + """

                Exit codes: 0 stopped cleanly, 1 failed at startup, 2 invalid configuration,
                3 self-fenced (lost its lease).
                """;
    }
}
