package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The negative control of the start-up storage probe on a real S3 server (issue 24 item 5): S3Proxy
 * on its filesystem back end ({@code S3_FS_ENDPOINT}) emulates If-Match as check-then-write, so a
 * node must refuse it before anything rests on the bucket. The node runs the same probe class as
 * {@code deploy-tool diagnose} and {@code POST /probe} (store/probe/StorageProbe): exit 1, one line
 * naming the URL and the race step, and nothing written but the probe's scratch objects.
 */
class NonAtomicBucketIT {
    @TempDir
    Path dir;

    @Test
    void aNodeRefusesS3ProxysFilesystemBackEndBeforeServingAnything() throws Exception {
        S3Env s3 = S3Env.require();
        String fs = System.getenv("S3_FS_ENDPOINT");
        Assumptions.assumeTrue(fs != null || "true".equals(System.getenv("CI")), "no S3_FS_ENDPOINT: source s3.env");
        assertThat(fs).as("S3_FS_ENDPOINT").isNotNull();
        String url = s3.freshUrl("non-atomic");
        try (Fleet f = Fleet.onBucket(dir, url, Map.of("S3_ENDPOINT", fs))) {
            NodeProcess n = f.launch("refused", Map.of());
            int code = n.waitForExit(Duration.ofSeconds(180));
            String out = String.join("\n", n.lines());
            assertThat(code).as(out).isEqualTo(1);
            assertThat(out).contains("storage probe FAILED on " + url + " at step 'race'");
            assertThat(n.events("lease.acquired")).as("no lease before the proof").isEmpty();
            assertThat(n.events("node.listening")).as("no listener before the proof").isEmpty();
            try (BucketStore b = Fleet.openBucket(url, Map.of("S3_ENDPOINT", fs, "AWS_REGION", s3.region()))) {
                assertThat(MissingPinIT.listAll(b, "")).as("objects the refused node wrote").allSatisfy(k -> assertThat(k).startsWith("probe/"));
            }
        }
    }
}
