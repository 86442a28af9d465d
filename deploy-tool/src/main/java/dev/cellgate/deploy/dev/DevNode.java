package dev.cellgate.deploy.dev;

import dev.cellgate.deploy.cli.CommandException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The node {@code dev} runs: {@code java -jar gateway.jar} as a child process, exactly as an
 * operator starts one, on the dev bucket, with every listener on 127.0.0.1. Its JSON log lines go
 * to {@code node.log} in the state directory, and the ones a developer needs to {@link DevConsole}.
 * A child process rather than a node inside this JVM: the gateway stays the only code that starts
 * and stops nodes (its startup, signals, drain and exit codes), and deploy-tool stays a client of
 * the bucket, as {@code push} is (deploy-tool README, "dev").
 */
final class DevNode implements AutoCloseable {
    /** Settings the dev node gets whatever the caller's environment says. */
    static final List<String> DECIDED = List.of("CELLD_BUCKET", "CELLD_WATCH", "CELLD_NODE", "CELLD_ADDR", "CELLD_INTERNAL_ADDR",
            "CELLD_ADVERTISE", "CELLD_LOG_FORMAT", "CELLD_FILE_FSYNC", "CELLD_SHUTDOWN_DRAIN_MS", "CELLD_STOP_GRACE_MS", "CELLD_DEPLOY_POLL_MS",
            "CELLD_PLUGINS_DIR", "S3_ENDPOINT", "AWS_REGION", "CELLD_GCS_ENDPOINT", GatewayJar.VARIABLE);
    /** How long a Ctrl-C waits for the node to drain before it is killed. */
    static final long DRAIN_MS = 5_000;
    /** How often the dev node reads the deployment pointer (CELLD_DEPLOY_POLL_MS). */
    static final long POLL_MS = 100;
    private static final int KEPT_LINES = 40;

    private final Process process;
    private final Path logFile;
    private final CompletableFuture<Integer> publicPort = new CompletableFuture<>();
    private final Deque<String> lastLines = new ArrayDeque<>();

    private DevNode(Process process, Path logFile, DevConsole console) {
        this.process = process;
        this.logFile = logFile;
        Thread pump = new Thread(() -> pump(console), "dev-node-output");
        pump.setDaemon(true);
        pump.start();
    }

    /**
     * @param bucketUrl the dev bucket ({@code file://…})
     * @param stateDir  where the node keeps its work directory and dev writes {@code node.log}
     * @param callerEnv the environment dev runs in; the node inherits it except {@link #DECIDED}
     */
    static DevNode start(Path gatewayJar, String bucketUrl, Path stateDir, Map<String, String> callerEnv, DevConsole console) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-jar", gatewayJar.toAbsolutePath().toString())
                .directory(stateDir.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.clear();
        env.putAll(nodeEnv(bucketUrl, stateDir, callerEnv));
        try {
            Files.createDirectories(stateDir);
            return new DevNode(pb.start(), stateDir.resolve("node.log"), console);
        } catch (IOException e) {
            throw CommandException.failed("cannot start the node (" + java + " -jar " + gatewayJar + "): " + e.getMessage(), e);
        }
    }

    static Map<String, String> nodeEnv(String bucketUrl, Path stateDir, Map<String, String> callerEnv) {
        Map<String, String> env = new HashMap<>(callerEnv);
        DECIDED.forEach(env::remove);
        env.keySet().removeIf(k -> k.startsWith("DEPLOY_TOOL_"));
        env.put("CELLD_BUCKET", bucketUrl);
        env.put("CELLD_WATCH", stateDir.resolve("node").toAbsolutePath().toString());
        env.put("CELLD_NODE", "dev");
        // nothing opened to the network: the public listener is reached through dev's own, and peers are none
        env.put("CELLD_ADDR", "127.0.0.1:0");
        env.put("CELLD_INTERNAL_ADDR", "127.0.0.1:0");
        env.put("CELLD_LOG_FORMAT", "json");
        // a development bucket: losing the last writes to a power cut is acceptable, waiting for fsync on every save is not
        env.put("CELLD_FILE_FSYNC", "0");
        env.put("CELLD_DEPLOY_POLL_MS", String.valueOf(POLL_MS)); // a save answers within 1 s (the default 500 ms poll ate half of it)
        env.put("CELLD_SHUTDOWN_DRAIN_MS", String.valueOf(DRAIN_MS));
        return env;
    }

    /** The node's public port, once it logged {@code node.listening}; a node that exits first is an error naming its last lines. */
    int awaitListening(long timeoutMs) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() < end) {
            try {
                return publicPort.get(100, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                if (!process.isAlive()) {
                    waitForPump();
                    throw CommandException.failed("the node exited (code " + process.exitValue() + ") before it listened; its last lines ("
                            + logFile + "):\n" + lastLines(), null);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw CommandException.failed("interrupted while the node started", e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw CommandException.failed("the node's output could not be read: " + e.getCause(), e);
            }
        }
        throw CommandException.failed("the node did not listen within " + timeoutMs / 1000 + " s; its last lines (" + logFile + "):\n"
                + lastLines(), null);
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The node's exit code, once it ended by itself. */
    int exitCode() {
        return process.exitValue();
    }

    synchronized String lastLines() {
        return String.join("\n", lastLines);
    }

    /** Stops the node as an operator would (SIGTERM: it drains, releases its cells, exits); killed if it has not ended in time. */
    @Override
    public void close() {
        if (process.isAlive()) {
            // the handle's destroy only signals: Process.destroy() also closes our end of the node's stdout,
            // and the drain's log lines (shutdown.requested … node.stopped) would be lost
            process.toHandle().destroy();
            try {
                if (!process.waitFor(DRAIN_MS + 10_000, TimeUnit.MILLISECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        }
        waitForPump();
    }

    private volatile boolean pumpDone;

    private void waitForPump() {
        for (int i = 0; i < 20 && !pumpDone; i++) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void pump(DevConsole console) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             Writer log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            String line;
            while ((line = r.readLine()) != null) {
                log.write(line);
                log.write('\n');
                log.flush();
                keep(line);
                JsonObject e = parse(line);
                if (e == null) {
                    console.raw(line);
                    continue;
                }
                try {
                    if ("node.listening".equals(e.getString("event"))) {
                        publicPort.complete(port(e.getString("public", "")));
                    }
                    console.nodeLine(e);
                } catch (RuntimeException shown) {
                    // one odd line must not stop the reading: the node would block on a full pipe
                    console.raw(line);
                }
            }
        } catch (IOException | RuntimeException e) {
            console.problem("reading the node's output failed: " + e);
            publicPort.completeExceptionally(e);
        } finally {
            pumpDone = true;
        }
    }

    private synchronized void keep(String line) {
        lastLines.addLast(line);
        while (lastLines.size() > KEPT_LINES) {
            lastLines.removeFirst();
        }
    }

    private static JsonObject parse(String line) {
        if (!line.startsWith("{")) {
            return null;
        }
        try {
            return new JsonObject(line);
        } catch (DecodeException e) {
            return null;
        }
    }

    private static int port(String hostPort) {
        return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
    }
}
