package dev.cellgate.gateway.launch;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Runs the node on the Graal JIT. Stock Temurin does not put the Graal compiler in its boot
 * layer, so GraalJS would run interpreted (3.5× to 25× slower). When the JVM lacks JVMCI, the
 * launcher starts a child JVM with the same options plus JVMCI and the 25.0.3 compiler jars on
 * the upgrade module path, forwards SIGTERM/SIGINT to it and exits with its exit code.
 *
 * <p>Relaunch happens only when the JDK's version is at least the compiler's: any drift makes
 * Truffle silently fall back to the interpreter, which the node then reports loudly.
 */
public final class JitLauncher {
    /** Set in the child so it never relaunches again. */
    static final String CHILD_PROPERTY = "cellgate.jit.child";
    /** Set in the child: when the launcher's JVM started (epoch ms). */
    static final String LAUNCHER_STARTED_PROPERTY = "cellgate.jit.launcher_started_ms";
    /** Set in the child: when the launcher spawned it (epoch ms). */
    static final String SPAWNED_PROPERTY = "cellgate.jit.spawned_ms";
    public static final String COMPILER_VERSION = "25.0.3";
    static final List<String> JVMCI_JARS = List.of("collections", "compiler", "truffle-compiler", "word");

    private JitLauncher() {
    }

    /** Why we run in-process instead (null when a relaunch should happen). */
    public static String reasonNotToRelaunch(Path jar, Path jvmciDir, boolean jitSetting) {
        if (!jitSetting) {
            return "CELLD_JIT=0";
        }
        if (System.getProperty(CHILD_PROPERTY) != null) {
            return "already relaunched";
        }
        if (jvmciEnabled()) {
            return "already running with JVMCI";
        }
        if (jar == null) {
            return "not started with java -jar gateway.jar";
        }
        Runtime.Version have = Runtime.version();
        Runtime.Version need = Runtime.Version.parse(COMPILER_VERSION);
        if (have.feature() != need.feature() || have.compareToIgnoreOptional(need) < 0) {
            return "this JDK is " + have + "; the Graal compiler in lib/jvmci is " + COMPILER_VERSION
                    + " and needs a JDK " + need.feature() + " at update " + need.update() + " or newer";
        }
        for (String j : JVMCI_JARS) {
            if (!Files.isRegularFile(jvmciDir.resolve(j + "-" + COMPILER_VERSION + ".jar"))) {
                return "missing " + jvmciDir.resolve(j + "-" + COMPILER_VERSION + ".jar");
            }
        }
        return null;
    }

    public static boolean jvmciEnabled() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:+EnableJVMCI");
    }

    /** Starts the child JVM and blocks until it exits; returns its exit code. */
    public static int relaunch(Path jar, Path jvmciDir, String[] args) throws IOException, InterruptedException {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>();
        cmd.add(javaBin);
        // The parent's own options (heap, -D…) apply to the child too.
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.add("-XX:+UnlockExperimentalVMOptions");
        cmd.add("-XX:+EnableJVMCI");
        cmd.add("--upgrade-module-path=" + String.join(java.io.File.pathSeparator,
                JVMCI_JARS.stream().map(j -> jvmciDir.resolve(j + "-" + COMPILER_VERSION + ".jar").toString()).toList()));
        cmd.add("--enable-native-access=ALL-UNNAMED");
        if (Runtime.version().feature() >= 23) {
            cmd.add("--sun-misc-unsafe-memory-access=allow");
        }
        cmd.add("-D" + CHILD_PROPERTY + "=" + ProcessHandle.current().pid());
        // For the child's startup timeline: when this launcher's JVM started and when it spawned the child.
        cmd.add("-D" + LAUNCHER_STARTED_PROPERTY + "=" + ManagementFactory.getRuntimeMXBean().getStartTime());
        cmd.add("-D" + SPAWNED_PROPERTY + "=" + System.currentTimeMillis());
        cmd.add("-jar");
        cmd.add(jar.toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        Map<String, String> env = pb.environment();
        // Already part of the input arguments: applying them twice would duplicate agents and ports.
        env.remove("JDK_JAVA_OPTIONS");
        env.remove("JAVA_TOOL_OPTIONS");
        Process child = pb.start();
        SignalForwarding.install(child);
        return child.waitFor();
    }

    /** In a relaunched child: when the launcher's JVM started (epoch ms); empty when this JVM was not relaunched. */
    public static java.util.OptionalLong launcherStartedMs() {
        return longProperty(LAUNCHER_STARTED_PROPERTY);
    }

    /** In a relaunched child: when the launcher spawned this JVM (epoch ms); empty when it was not relaunched. */
    public static java.util.OptionalLong spawnedMs() {
        return longProperty(SPAWNED_PROPERTY);
    }

    private static java.util.OptionalLong longProperty(String name) {
        try {
            String v = System.getProperty(name);
            return v == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(Long.parseLong(v));
        } catch (NumberFormatException e) {
            return java.util.OptionalLong.empty();
        }
    }

    /** In the child: exit when the launcher dies (kill -9 would otherwise orphan us). */
    public static void watchParentIfChild(Runnable onParentGone) {
        String ppid = System.getProperty(CHILD_PROPERTY);
        if (ppid == null) {
            return;
        }
        Optional<ProcessHandle> parent = ProcessHandle.of(Long.parseLong(ppid));
        if (parent.isEmpty()) {
            onParentGone.run();
            return;
        }
        Thread t = new Thread(() -> {
            while (true) {
                if (parentGone(parent.get(), JitLauncher::canOpenFiles)) {
                    onParentGone.run();
                    return;
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "parent-watch");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Whether the launcher is gone. {@link ProcessHandle#isAlive()} reads {@code /proc/<pid>/stat}
     * on Linux and answers false when it cannot open it, so a node whose file descriptors are all in
     * use (thousands of resident cells, each with its SQLite files open) took a live launcher for
     * dead and shut itself down. A "not alive" seen while this process cannot open a file is no
     * evidence: the next check decides.
     */
    static boolean parentGone(ProcessHandle parent, BooleanSupplier canOpenFiles) {
        return !parent.isAlive() && canOpenFiles.getAsBoolean();
    }

    /** Whether this process can open a file now (a file every JDK has: its release notes). */
    static boolean canOpenFiles() {
        try (FileChannel c = FileChannel.open(Path.of(System.getProperty("java.home"), "release"), StandardOpenOption.READ)) {
            return c.isOpen();
        } catch (IOException e) {
            return false;
        }
    }

    /** The jar we were started from with {@code java -jar}, or null. */
    public static Path startedJar(Path distHome, boolean fromJar) {
        Path jar = distHome.resolve("gateway.jar");
        return fromJar && Files.isRegularFile(jar) ? jar : null;
    }
}
