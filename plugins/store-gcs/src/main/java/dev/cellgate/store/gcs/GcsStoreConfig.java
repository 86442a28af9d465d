package dev.cellgate.store.gcs;

import dev.cellgate.core.logic.Backoff;
import dev.cellgate.core.spi.bucket.BucketUrl;
import dev.cellgate.core.spi.bucket.StoreOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Optional;

/**
 * How to reach one GCS bucket.
 *
 * @param endpoint a JSON API host other than Google's ({@code CELLD_GCS_ENDPOINT}: an emulator or
 *                 test server); requests to it carry no credentials
 * @param attemptTimeout read timeout of one HTTP request; past it a write is ambiguous
 * @param backoff        retries of one operation (throttling; and server errors for reads): {@link #RETRIES}
 *                       unless a test sets another
 */
record GcsStoreConfig(BucketUrl url, Optional<URI> endpoint, Duration connectTimeout, Duration attemptTimeout,
                      Backoff backoff) {

    static final String ENDPOINT_OPTION = "CELLD_GCS_ENDPOINT";
    /** The S3 store's bounds: at most 6 requests, the n-th retry after up to 100 ms * 2^(n-1), capped at 5 s. */
    static final Backoff RETRIES = new Backoff(100, 5_000, 6);

    static GcsStoreConfig from(BucketUrl url, StoreOptions options) {
        if (!url.scheme().equals("gs")) {
            throw new IllegalArgumentException("bucket URL '" + url.raw() + "' is not a gs:// URL");
        }
        if (!url.bucket().matches("[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]")) {
            throw new IllegalArgumentException("bucket URL '" + url.raw() + "': '" + url.bucket()
                    + "' is not a valid GCS bucket name (a-z 0-9 . _ -)");
        }
        Optional<URI> endpoint = options.get(ENDPOINT_OPTION).map(GcsStoreConfig::endpoint);
        return new GcsStoreConfig(url, endpoint, Duration.ofSeconds(10), Duration.ofSeconds(30), RETRIES);
    }

    private static URI endpoint(String raw) {
        try {
            URI u = new URI(raw);
            if (u.getScheme() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https"))
                    || u.getHost() == null) {
                throw new IllegalArgumentException("invalid " + ENDPOINT_OPTION + "='" + raw + "': must be http(s)://host[:port]");
            }
            return u;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("invalid " + ENDPOINT_OPTION + "='" + raw + "': " + e.getMessage(), e);
        }
    }

    GcsStoreConfig withLimits(Duration attempt, int attempts) {
        return new GcsStoreConfig(url, endpoint, connectTimeout, attempt, new Backoff(1, 20, attempts));
    }
}
