package dev.cellgate.gateway.it;

import java.net.URI;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/**
 * The real S3-compatible server the live fault scenarios run against (.ci/s3-server.sh writes
 * its settings to s3.env). Missing settings skip the test locally and fail it under CI or qualify.
 */
record S3Env(URI endpoint, String bucket, String region) {
    static S3Env require() {
        String endpoint = System.getenv("S3_ENDPOINT");
        String bucket = System.getenv("S3_BUCKET");
        String region = System.getenv("AWS_REGION");
        if (endpoint == null || bucket == null || region == null) {
            if ("true".equals(System.getenv("CI")) || "true".equals(System.getenv("QUALIFY"))) {
                throw new AssertionError("S3_ENDPOINT/S3_BUCKET/AWS_REGION missing: run .ci/s3-server.sh start and source its s3.env");
            }
            Assumptions.abort("no S3 server: run .ci/s3-server.sh start and source .ci/work/s3-server/s3.env");
        }
        return new S3Env(URI.create(endpoint), bucket, region);
    }

    /** A fresh prefix in the test bucket: each scenario gets a bucket of its own. */
    String freshUrl(String what) {
        return "s3://" + bucket + "/" + what + "-" + UUID.randomUUID();
    }
}
