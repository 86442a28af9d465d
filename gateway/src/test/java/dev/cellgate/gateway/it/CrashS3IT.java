package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RPO=0 on a real S3-compatible server on loopback (S3Proxy on Azurite, started by
 * .ci/s3-server.sh): SIGKILL + wiped disk, 5 cycles, no acknowledged write lost. Five, not the
 * directory bucket's ten: each cycle's restart on S3 costs ~16 s on the 2-core CI box, and qualify's
 * sigkill-wiped-disk scenario repeats the same kill on S3 under faults for minutes.
 */
class CrashS3IT {
    static final int CYCLES = Integer.getInteger("crash.s3.cycles", 5);

    @TempDir
    Path dir;

    @Test
    void noAcknowledgedWriteIsLostOnS3() throws Exception {
        String endpoint = System.getenv("S3_ENDPOINT");
        String bucket = System.getenv("S3_BUCKET");
        if (endpoint == null || bucket == null) {
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError("S3_ENDPOINT/S3_BUCKET missing under CI: run .ci/s3-server.sh start and source its s3.env");
            }
            Assumptions.abort("no S3 server: run .ci/s3-server.sh start and source .ci/work/s3-server/s3.env");
        }
        String url = "s3://" + bucket + "/crash-" + UUID.randomUUID();
        // The node's default lease (10 s), not the file test's 3 s: through S3Proxy on Azurite, right
        // after a node starts (its JIT and the emulator's competing for 2 cores), one conditional
        // write took over 4 s in CI and a 6 s lease fenced the node mid-cycle (exit 3, logged).
        try (Fleet f = Fleet.onBucket(dir, url, Map.of("CELLD_TTL_MS", "10000"))) {
            try (BucketStore b = f.openBucket()) {
                TestDeployments.publish(b, "ledger", Map.of("index.js", CrashLedger.WORKER), "index.js", Map.of("LEDGER", "Ledger"), Map.of());
            }
            CrashLedger.Result r = CrashLedger.run(f, CYCLES, 4, Map.of(), 7, false);
            System.out.printf("s3 gate on: %d acknowledged, %d lost over %d cycles%n", r.acked(), r.lost(), CYCLES);
            assertThat(r.acked()).isGreaterThan(CYCLES * 8);
            assertThat(r.details()).as("lost acknowledged writes").isEmpty();
        }
    }
}
