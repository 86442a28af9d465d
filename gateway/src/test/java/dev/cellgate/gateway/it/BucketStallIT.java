package dev.cellgate.gateway.it;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI variant of {@link BucketStallScenario} (issue 29, item 4): two real nodes on the real S3
 * server, each behind its fault proxy, the default 10 s lease, the bucket cut off from both for
 * 20 s under ledger writers and stateless requests. No process exits, stateless requests are
 * answered throughout, cell calls get 503 + Retry-After while degraded and succeed again within
 * the TTL once the bucket is back; zero lost acknowledged writes, zero double owners.
 */
class BucketStallIT {
    @TempDir
    Path dir;

    @Test
    void aBucketStallOfTwiceTheLeaseCostsCellsItsLengthAndNeverTheFleet() throws Exception {
        BucketStallScenario.run(dir, new BucketStallScenario.Params("bucket-stall-ci", List.of("n1", "n2"), 10_000, 4, false, 62));
    }
}
