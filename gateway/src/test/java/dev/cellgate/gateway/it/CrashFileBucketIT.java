package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RPO=0 on a directory bucket: SIGKILL + wiped disk loses no acknowledged write; acknowledging
 * before the upload (CELLD_OUTPUT_GATE=0) does. Replication uploads are slowed to 150 ms by a
 * test store plugin so that a kill often lands while uploads are in flight — what a real network
 * does — which is exactly the window the output gate must cover.
 */
class CrashFileBucketIT {
    static final int CYCLES = Integer.getInteger("crash.cycles", 10);

    @TempDir
    Path dir;

    private Fleet fleetWithLedger(Path root) throws Exception {
        Path plugins = root.resolve("plugins");
        java.nio.file.Files.createDirectories(plugins);
        try (var s = java.nio.file.Files.list(NodeProcess.GATEWAY_JAR.getParent().resolve("plugins"))) {
            for (Path p : s.toList()) {
                java.nio.file.Files.copy(p, plugins.resolve(p.getFileName()));
            }
        }
        Path jar = dev.cellgate.core.plugin.TestPluginBuilder.buildSlowStorePlugin(root.resolve("plugin-build"), "slowfile",
                System.getProperty("java.class.path"), 150);
        java.nio.file.Files.copy(jar, plugins.resolve("slowfile.jar"));
        Path bucket = root.resolve("bucket");
        java.nio.file.Files.createDirectories(bucket);
        Fleet f = new Fleet(root, "file://" + bucket, Map.of("CELLD_TTL_MS", "3000", "CELLD_PLUGINS_DIR", plugins.toString(),
                "CELLD_BUCKET", "slowfile:/" + bucket));
        try (BucketStore b = f.openBucket()) {
            TestDeployments.publish(b, "ledger", Map.of("index.js", CrashLedger.WORKER), "index.js", Map.of("LEDGER", "Ledger"), Map.of());
        }
        return f;
    }

    @Test
    void noAcknowledgedWriteIsLostAcrossKillAndWipeCycles() throws Exception {
        try (Fleet f = fleetWithLedger(dir.resolve("gate-on"))) {
            CrashLedger.Result r = CrashLedger.run(f, CYCLES, 4, Map.of(), 42, false);
            System.out.printf("gate on: %d acknowledged, %d lost over %d cycles%n", r.acked(), r.lost(), CYCLES);
            assertThat(r.acked()).as("the writers got acknowledgements").isGreaterThan(CYCLES * 8);
            assertThat(r.details()).as("lost acknowledged writes").isEmpty();
        }
    }

    @Test
    void theCheckCatchesANodeThatAcknowledgesBeforeReplication() throws Exception {
        try (Fleet f = fleetWithLedger(dir.resolve("gate-off"))) {
            CrashLedger.Result r = CrashLedger.run(f, CYCLES, 8, Map.of("CELLD_OUTPUT_GATE", "0"), 42, true);
            System.out.printf("gate off: %d acknowledged, %d lost over %d cycles%n", r.acked(), r.lost(), CYCLES);
            assertThat(r.lost()).as("acknowledged writes lost with CELLD_OUTPUT_GATE=0 (the broken variant)").isPositive();
        }
    }
}
