package dev.cellgate.store.s3;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.BucketUrl;
import dev.cellgate.core.spi.bucket.StoreOptions;
import java.util.Map;

/**
 * The real S3 servers on loopback that {@code .ci/s3-server.sh start} runs, found through the
 * environment file it writes. Without them a test is skipped on a developer machine and FAILS
 * under CI ({@code CI=true}): a CI run that silently skipped the real server would prove nothing.
 */
final class S3TestServers {
    static final String HOW = "start the S3 servers with `.ci/s3-server.sh start` and `source` the env file it prints";

    private S3TestServers() {
    }

    /** S3Proxy on Azurite: atomic conditional writes. */
    static String azureEndpoint() {
        return required("S3_ENDPOINT");
    }

    /** S3Proxy on its filesystem back end: non-atomic If-Match, the negative control. */
    static String filesystemEndpoint() {
        return required("S3_FS_ENDPOINT");
    }

    static String bucket() {
        return required("S3_BUCKET");
    }

    static BucketStore open(String endpoint, String prefix) {
        required("AWS_ACCESS_KEY_ID");
        required("AWS_SECRET_ACCESS_KEY");
        String url = "s3://" + bucket() + "/" + prefix;
        return new S3BucketStoreProvider().open(BucketUrl.parse(url),
                new StoreOptions(Map.of("S3_ENDPOINT", endpoint, "AWS_REGION", required("AWS_REGION"))));
    }

    static String required(String name) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) {
            if ("true".equals(System.getenv("CI"))) {
                fail(name + " is not set under CI=true: " + HOW);
            }
            assumeTrue(false, name + " is not set; skipping the real-S3 test: " + HOW);
        }
        return v;
    }
}
