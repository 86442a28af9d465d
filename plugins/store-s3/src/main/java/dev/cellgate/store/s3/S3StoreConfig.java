package dev.cellgate.store.s3;

import dev.cellgate.core.logic.Backoff;
import dev.cellgate.core.spi.bucket.BucketUrl;
import dev.cellgate.core.spi.bucket.StoreOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Optional;

/**
 * How to reach one S3 bucket: the parsed URL, the endpoint (a custom one switches to path-style
 * addressing), the region, and the time and retry bounds.
 *
 * @param region empty: the SDK's region chain decides (AWS_REGION, profile, instance metadata)
 * @param attemptTimeout bound on one HTTP request; past it a write is ambiguous
 * @param backoff        retries of one logical operation ({@link #RETRIES} unless a test sets another)
 */
record S3StoreConfig(BucketUrl url, Optional<URI> endpoint, Optional<String> region, Duration connectTimeout,
                     Duration attemptTimeout, Backoff backoff) {

    static final String ENDPOINT_OPTION = "S3_ENDPOINT";
    static final String REGION_OPTION = "AWS_REGION";
    /**
     * One logical operation makes at most 6 requests (the SDK's own retries are off, so nothing
     * multiplies this bound), the n-th retry after up to 100 ms * 2^(n-1), capped at 5 s.
     */
    static final Backoff RETRIES = new Backoff(100, 5_000, 6);

    static S3StoreConfig from(BucketUrl url, StoreOptions options) {
        if (!url.scheme().equals("s3")) {
            throw new IllegalArgumentException("bucket URL '" + url.raw() + "' is not an s3:// URL");
        }
        if (!url.bucket().matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
            throw new IllegalArgumentException("bucket URL '" + url.raw() + "': '" + url.bucket()
                    + "' is not a valid S3 bucket name (3-63 of a-z 0-9 . -)");
        }
        Optional<URI> endpoint = options.get(ENDPOINT_OPTION).map(S3StoreConfig::endpoint);
        return new S3StoreConfig(url, endpoint, options.get(REGION_OPTION), Duration.ofSeconds(10),
                Duration.ofSeconds(30), RETRIES);
    }

    private static URI endpoint(String raw) {
        try {
            URI u = new URI(raw);
            if (u.getScheme() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https"))
                    || u.getHost() == null) {
                throw new IllegalArgumentException("invalid S3_ENDPOINT='" + raw + "': must be http(s)://host[:port]");
            }
            return u;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("invalid S3_ENDPOINT='" + raw + "': " + e.getMessage(), e);
        }
    }

    S3StoreConfig withTimeouts(Duration connect, Duration attempt) {
        return new S3StoreConfig(url, endpoint, region, connect, attempt, backoff);
    }

    S3StoreConfig withBackoff(Backoff b) {
        return new S3StoreConfig(url, endpoint, region, connectTimeout, attemptTimeout, b);
    }
}
