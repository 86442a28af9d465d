package dev.cellgate.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.spi.bucket.BucketStore;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 item 5: a node that fails to start after it wrote its lease (here: its public port is
 * taken, which it finds out last) removes the lease again, so peers do not count a node that never
 * served as alive until its lease expires, and a restart with the same id need not wait it out.
 */
class FailedStartIT {
    @TempDir
    Path dir;

    @Test
    void aNodeThatFailsAfterWritingItsLeaseRemovesIt() throws Exception {
        try (Fleet f = Fleet.onFileBucket(dir, Map.of());
             ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            NodeProcess n = f.launch("failed-start", Map.of("CELLD_ADDR", "127.0.0.1:" + taken.getLocalPort()));
            int code = n.waitForExit(Duration.ofSeconds(120));
            assertThat(code).as(String.join("\n", n.lines())).isEqualTo(1);
            assertThat(n.events("lease.acquired")).as("the lease was written before the failure").isNotEmpty();
            assertThat(String.join("\n", n.lines())).contains("node.start_failed");
            try (BucketStore b = f.openBucket()) {
                assertThat(b.list("nodes/", null, 100).get(30, TimeUnit.SECONDS).keys()).as("lease records left in the bucket").isEmpty();
            }
        }
    }
}
