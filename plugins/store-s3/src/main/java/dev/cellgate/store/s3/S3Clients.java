package dev.cellgate.store.s3;

import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;

/**
 * Builds the SDK client for a store.
 *
 * <p>HTTP: the SDK's own netty-nio-client on the Netty version the SDK is built and tested with
 * (4.1), relocated inside the plugin jar. The host's Netty (4.2, from Vert.x 5) is not supported by
 * the SDK, and relocation keeps the two from ever sharing a class (see docs/storage.md).
 *
 * <p>Retries: the SDK's are off. {@link S3BucketStore} retries throttling itself, with a bound, so
 * one logical operation never fans out into SDK retries times ours, and a write whose answer was
 * lost is never re-sent (its retry could report a rejection for its own success).
 */
final class S3Clients {
    private S3Clients() {
    }

    /** The client owns (and closes) its HTTP client; the caller closes {@code credentials}. */
    static S3AsyncClient build(S3StoreConfig c, AwsCredentialsProvider credentials) {
        S3AsyncClientBuilder b = S3AsyncClient.builder()
                .httpClientBuilder(NettyNioAsyncHttpClient.builder()
                        .maxConcurrency(64)
                        .connectionTimeout(c.connectTimeout())
                        .connectionAcquisitionTimeout(c.attemptTimeout())
                        .readTimeout(c.attemptTimeout())
                        .writeTimeout(c.attemptTimeout()))
                .credentialsProvider(credentials)
                .region(region(c))
                // Plain bodies with Content-MD5 (set per request) instead of aws-chunked bodies with a
                // trailing CRC: every S3-compatible server understands them, and the server still
                // checks the bytes it stored.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryStrategy(AwsRetryStrategy.doNotRetry())
                        .apiCallAttemptTimeout(c.attemptTimeout())
                        .apiCallTimeout(c.attemptTimeout().plusSeconds(5))
                        .build());
        c.endpoint().ifPresent(e -> b.endpointOverride(e).forcePathStyle(true));
        return b.build();
    }

    private static Region region(S3StoreConfig c) {
        if (c.region().isPresent()) {
            return Region.of(c.region().get());
        }
        try {
            return DefaultAwsRegionProviderChain.builder().build().getRegion();
        } catch (SdkClientException e) {
            throw new IllegalArgumentException("bucket " + c.url().raw()
                    + " needs a region: set AWS_REGION (or a region in the AWS profile)", e);
        }
    }
}
