package dev.cellgate.gateway.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 item 2 / issue 22: {@code gateway/bin/cellgate} starts the node on the Graal JIT without
 * the relaunch: the process it starts is the node (no child JVM), the engine runs compiled, and
 * SIGTERM reaches the node itself, which drains and exits 0.
 */
class CellgateScriptIT {
    @TempDir
    Path dir;

    @Test
    void theScriptsProcessIsTheNodeOnTheJit() throws Exception {
        Path script = Path.of("bin/cellgate").toAbsolutePath();
        Path out = dir.resolve("out.log");
        ProcessBuilder pb = new ProcessBuilder(script.toString()).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("CELLD_") || k.equals("S3_ENDPOINT") || k.equals("CELLGATE_JAR"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("CELLD_ADDR", "127.0.0.1:0");
        pb.environment().put("CELLD_WATCH", dir.resolve("node").toString());
        pb.environment().put("CELLD_BUCKET", "file://" + dir.resolve("bucket"));
        pb.environment().put("CELLGATE_JAR", Path.of("target/gateway.jar").toAbsolutePath().toString());
        Process node = pb.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!Files.readString(out).contains("\"node.listening\"")) {
                assertThat(node.isAlive()).as("node running; output:%n%s", Files.readString(out)).isTrue();
                assertThat(System.nanoTime()).as("node.listening within 90 s").isLessThan(deadline);
                Thread.sleep(200);
            }
            String log = Files.readString(out);
            assertThat(node.children().toList()).as("no relaunched child JVM").isEmpty();
            assertThat(node.info().command().orElse("")).endsWith("/bin/java");
            assertThat(log).contains("\"event\":\"engine.started\"").contains("\"mode\":\"jit\"");
            // Issue 26 item 5: the resident ceiling the node logs (the open-file limit sets it here) is the one
            // its lease publishes, which diagnose and the dashboard show.
            io.vertx.core.json.JsonObject ceiling = log.lines().filter(l -> l.contains("\"event\":\"cells.resident_ceiling\""))
                    .map(io.vertx.core.json.JsonObject::new).findFirst().orElseThrow();
            String nodeId = ceiling.getString("node");
            // the file store frames the lease JSON with its own header: the JSON is inside
            String lease = new String(Files.readAllBytes(dir.resolve("bucket/nodes/" + nodeId + ".json")), java.nio.charset.StandardCharsets.ISO_8859_1);
            assertThat(lease).contains("\"max_resident\":" + ceiling.getInteger("max_resident") + ",");
            node.destroy(); // SIGTERM, straight to the node
            assertThat(node.waitFor(60, TimeUnit.SECONDS)).as("exited after SIGTERM").isTrue();
            assertThat(node.exitValue()).as(Files.readString(out)).isZero();
            assertThat(Files.readString(out)).contains("\"node.stopped\"");
        } finally {
            node.destroyForcibly();
        }
    }
}
