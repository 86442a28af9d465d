package dev.cellgate.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** A real node ({@code java -jar gateway/target/gateway.jar}) on a bucket, for tests that talk to nodes; its log lines are kept. */
public final class RealNode implements AutoCloseable {
    /** A command's --timeout-ms against a real node: generous, its first requests run before its JIT warms up on a shared box. */
    public static final String TIMEOUT_MS = "60000";

    public final Process process;
    public final List<String> lines = new CopyOnWriteArrayList<>();
    /** The node's {@code node.listening} line. */
    public final JsonObject listening;

    private RealNode(Process process) throws InterruptedException {
        this.process = process;
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String l;
                while ((l = r.readLine()) != null) {
                    lines.add(l);
                }
            } catch (java.io.IOException ignored) {
                // the node ended
            }
        });
        pump.setDaemon(true);
        pump.start();
        this.listening = awaitEvent("node.listening");
    }

    /** A file bucket under {@code dir} with a hello-world Worker pushed: what the node tests start from. Returns its URL. */
    public static String helloBucket(Path dir) throws Exception {
        String bucket = "file://" + dir.resolve("bucket");
        Path bundle = dir.resolve("hello.js");
        java.nio.file.Files.writeString(bundle, "export default { fetch() { return new Response('hello'); } };\n");
        assertThat(ToolRun.run("push", bundle.toString(), "--bucket", bucket).code()).isZero();
        return bucket;
    }

    /** Starts node {@code name} on {@code bucket} with its work directory under {@code dir}; returns once it listens. */
    public static RealNode start(Path dir, String bucket, String name) throws Exception {
        Path jar = ToolRun.repoRoot().resolve("gateway/target/gateway.jar");
        assertThat(jar).as("build first: mvn -q package -DskipTests").exists();
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                "-jar", jar.toString()).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("CELLD_"));
        pb.environment().put("CELLD_BUCKET", bucket);
        pb.environment().put("CELLD_NODE", name);
        pb.environment().put("CELLD_ADDR", "127.0.0.1:0");
        pb.environment().put("CELLD_INTERNAL_ADDR", "127.0.0.1:0");
        pb.environment().put("CELLD_WATCH", dir.resolve("watch-" + name).toString());
        pb.environment().put("CELLD_FILE_FSYNC", "0");
        pb.environment().put("CELLD_LOG_FORMAT", "json");
        return new RealNode(pb.start());
    }

    public String log() {
        return String.join("\n", lines);
    }

    /**
     * The first log event {@code event}, once logged (within 180 s); {@code deployment.load_failed}
     * fails at once, and so does the node's exit.
     */
    public JsonObject awaitEvent(String event) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < end) {
            for (String l : lines) {
                if (l.contains("\"event\":\"" + event + "\"")) {
                    return new JsonObject(l);
                }
                if (l.contains("\"event\":\"deployment.load_failed\"")) {
                    throw new AssertionError("the node could not load the deployment: " + l);
                }
            }
            if (!process.isAlive()) {
                throw new AssertionError("the node exited (" + process.exitValue() + "):\n" + log());
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no " + event + " from the node in 180 s:\n" + log());
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
