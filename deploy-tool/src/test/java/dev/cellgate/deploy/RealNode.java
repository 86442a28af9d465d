package dev.cellgate.deploy;

import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** A real node ({@code java -jar gateway/target/gateway.jar}) on a bucket, for tests; its log lines are kept. */
public final class RealNode implements AutoCloseable {
    public final Process process;
    public final List<String> lines = new CopyOnWriteArrayList<>();

    public RealNode(Path workDir, String bucket, String nodeId) throws Exception {
        Path jar = ToolRun.repoRoot().resolve("gateway/target/gateway.jar");
        if (!jar.toFile().exists()) {
            throw new AssertionError("build first: mvn -q package -DskipTests (" + jar + " is missing)");
        }
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                "-jar", jar.toString()).directory(workDir.toFile()).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("CELLD_"));
        pb.environment().put("CELLD_BUCKET", bucket);
        pb.environment().put("CELLD_NODE", nodeId);
        pb.environment().put("CELLD_ADDR", "127.0.0.1:0");
        pb.environment().put("CELLD_INTERNAL_ADDR", "127.0.0.1:0");
        pb.environment().put("CELLD_WATCH", workDir.resolve("watch-" + nodeId).toString());
        pb.environment().put("CELLD_FILE_FSYNC", "0");
        pb.environment().put("CELLD_LOG_FORMAT", "json");
        process = pb.start();
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
    }

    /** The node.listening event, once the node logged it (within 180 s). */
    public JsonObject awaitListening() throws InterruptedException {
        return awaitEvent("node.listening");
    }

    /** The first log event {@code event}, once logged (within 180 s); {@code deployment.load_failed} fails at once. */
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
                throw new AssertionError("the node exited: " + String.join("\n", lines));
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the node did not listen within 180 s: " + String.join("\n", lines));
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
