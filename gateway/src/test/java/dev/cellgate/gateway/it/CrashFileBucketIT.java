package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RPO=0 on the file bucket: SIGKILL + wiped disk loses no acknowledged write; acking before upload does. */
class CrashFileBucketIT {
    static final int CYCLES = Integer.getInteger("crash.cycles", 10);

    @TempDir
    Path dir;

    private Fleet fleetWithLedger(Path root) throws Exception {
        Fleet f = Fleet.onFileBucket(root, Map.of("CELLD_TTL_MS", "3000"));
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
            assertThat(r.acked()).as("the writers got acknowledgements").isGreaterThan(CYCLES * 20);
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
