package dev.cellgate.store.s3;

import dev.cellgate.core.async.Retrying;
import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.spi.bucket.BucketException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.BucketUrl;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.time.Scheduler;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * A bucket on S3 or an S3-compatible server. Create-only is {@code If-None-Match: *}, compare-and-swap
 * is {@code If-Match: <etag>}; the etag is the version and is passed back verbatim, never parsed.
 *
 * <p>Whether those conditions are atomic is the server's business: AWS S3 and S3Proxy on Azure
 * Blob make them so, S3Proxy's filesystem back end does not. The storage probe tells them apart.
 */
final class S3BucketStore implements BucketStore {
    private static final Logger LOG = LoggerFactory.getLogger(S3BucketStore.class);
    /** ListObjectsV2 returns at most this many keys per page. */
    private static final int S3_MAX_KEYS = 1000;

    private final S3StoreConfig config;
    private final BucketUrl url;
    private final AwsCredentialsProvider credentials;
    private final S3AsyncClient s3;
    private final ScheduledExecutorService timer;

    S3BucketStore(S3StoreConfig config, AwsCredentialsProvider credentials) {
        this.config = config;
        this.url = config.url();
        this.credentials = credentials;
        this.s3 = S3Clients.build(config, credentials);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "s3-retry-" + url.bucket());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public String url() {
        return url.raw();
    }

    @Override
    public CompletableFuture<Optional<StoredObject>> get(String key) {
        return checked(key, () -> retried(() -> s3.getObject(r -> r.bucket(url.bucket()).key(url.fullKey(key)),
                                AsyncResponseTransformer.toBytes()), f -> f.retryableRead())
                .handle((resp, err) -> {
                    if (err == null) {
                        return Optional.of(new StoredObject(resp.asByteArray(), resp.response().eTag()));
                    }
                    if (S3Failure.of(err) == S3Failure.NO_SUCH_KEY) {
                        return Optional.<StoredObject>empty();
                    }
                    throw failure("read", key, err);
                }));
    }

    /** A HEAD: the etag without the bytes (on the loopback emulator a third of a GET's latency). */
    /** One HEAD: the object's Content-Length and Last-Modified (the server's clock, whole seconds on S3). */
    @Override
    public CompletableFuture<Optional<dev.cellgate.core.spi.bucket.ObjectInfo>> info(String key) {
        return checked(key, () -> retried(() -> s3.headObject(r -> r.bucket(url.bucket()).key(url.fullKey(key))),
                f -> f.retryableRead())
                .handle((resp, err) -> {
                    if (err == null) {
                        long at = resp.lastModified() == null ? dev.cellgate.core.spi.bucket.ObjectInfo.UNKNOWN_TIME
                                : resp.lastModified().toEpochMilli();
                        return Optional.of(new dev.cellgate.core.spi.bucket.ObjectInfo(resp.contentLength(), at));
                    }
                    if (S3Failure.of(err) == S3Failure.NO_SUCH_KEY) {
                        return Optional.<dev.cellgate.core.spi.bucket.ObjectInfo>empty();
                    }
                    throw failure("read the size and time of", key, err);
                }));
    }

    @Override
    public CompletableFuture<Optional<String>> version(String key) {
        return checked(key, () -> retried(() -> s3.headObject(r -> r.bucket(url.bucket()).key(url.fullKey(key))),
                f -> f.retryableRead())
                .handle((resp, err) -> {
                    if (err == null) {
                        return Optional.of(resp.eTag());
                    }
                    if (S3Failure.of(err) == S3Failure.NO_SUCH_KEY) {
                        return Optional.<String>empty();
                    }
                    throw failure("read the version of", key, err);
                }));
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
        return write(key, bytes, b -> b.ifNoneMatch("*"), true);
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
        if (version == null || version.isEmpty()) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("compare-and-swap of '" + key
                    + "' in " + url + " names no version"));
        }
        return write(key, bytes, b -> b.ifMatch(version), true);
    }

    @Override
    public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
        return write(key, bytes, b -> {
        }, false);
    }

    @Override
    public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
        if (limit < 1) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("list limit must be positive"));
        }
        String storePrefix = url.prefix().isEmpty() ? "" : url.prefix() + "/";
        return retried(() -> s3.listObjectsV2(r -> r.bucket(url.bucket()).prefix(storePrefix + prefix)
                        .maxKeys(Math.min(limit, S3_MAX_KEYS)).continuationToken(cursor)), f -> f.retryableRead())
                .handle((resp, err) -> {
                    if (err != null) {
                        throw failure("list", prefix, err);
                    }
                    return page(resp, storePrefix);
                });
    }

    @Override
    public CompletableFuture<Void> delete(String key) {
        return checked(key, () -> retried(() -> s3.deleteObject(r -> r.bucket(url.bucket()).key(url.fullKey(key))),
                f -> f.retryableRead())
                .handle((resp, err) -> {
                    if (err != null && S3Failure.of(err) != S3Failure.NO_SUCH_KEY) {
                        throw failure("delete", key, err);
                    }
                    return null;
                }));
    }

    @Override
    public void close() {
        s3.close();
        if (credentials instanceof SdkAutoCloseable c) {
            c.close();
        }
        timer.shutdownNow();
    }

    // ------------------------------------------------------------------ internals

    private CompletableFuture<WriteOutcome> write(String key, byte[] bytes, Consumer<PutObjectRequest.Builder> condition,
                                                  boolean conditional) {
        Predicate<S3Failure> retryable = conditional ? S3Failure::retryableWrite
                : f -> f.retryableWrite() || f == S3Failure.CONFLICT;
        AtomicBoolean earlierMayHaveApplied = new AtomicBoolean();
        Predicate<S3Failure> retry = f -> {
            boolean again = retryable.test(f);
            if (again && f.mayHaveBeenApplied()) {
                earlierMayHaveApplied.set(true);
            }
            return again;
        };
        String md5 = md5(bytes); // the server checks the bytes it stored against it
        boolean ownConnection = conditional && config.endpoint().isPresent();
        return checked(key, () -> retried(() -> s3.putObject(r -> {
                    r.bucket(url.bucket()).key(url.fullKey(key)).contentLength((long) bytes.length).contentMD5(md5);
                    condition.accept(r);
                    if (ownConnection) {
                        // Measured on S3Proxy: after a 412 the server sometimes closes the kept-alive
                        // connection without saying so (2 in 600 rejected writes), and the NEXT request
                        // on it fails with no answer: an ambiguous write that did not happen. On a
                        // custom endpoint, a conditional write therefore leaves its connection closed.
                        r.overrideConfiguration(o -> o.putHeader("Connection", "close"));
                    }
                }, AsyncRequestBody.fromBytes(bytes)), retry)
                .handle((resp, err) -> outcome(key, resp, err, conditional, earlierMayHaveApplied.get())));
    }

    private WriteOutcome outcome(String key, PutObjectResponse resp, Throwable err, boolean conditional,
                                 boolean earlierMayHaveApplied) {
        if (err == null) {
            return resp.eTag() == null
                    ? new WriteOutcome.Ambiguous(url + " answered a write of '" + key + "' without an ETag", null)
                    : new WriteOutcome.Written(resp.eTag(), ServerDate.of(resp));
        }
        S3Failure f = S3Failure.of(err);
        String what = S3Failure.describe(err);
        if (earlierMayHaveApplied && (f == S3Failure.PRECONDITION_FAILED || f == S3Failure.CONFLICT || f == S3Failure.NO_SUCH_KEY)) {
            return new WriteOutcome.Ambiguous(url + " key '" + key + "': an earlier attempt was answered with a server error"
                    + " (HTTP 500/503) and may have been applied; the retry then got " + what, err);
        }
        return switch (f) {
            case PRECONDITION_FAILED -> new WriteOutcome.Rejected("precondition failed (" + what + ")");
            case CONFLICT -> conditional ? new WriteOutcome.Rejected("concurrent conditional write (" + what + ")")
                    : new WriteOutcome.Ambiguous("still conflicting after retries (" + what + ")", err);
            case NO_SUCH_KEY -> {
                if (!conditional) {
                    throw failure("write", key, err);
                }
                yield new WriteOutcome.Rejected("object does not exist (" + what + ")");
            }
            case THROTTLED -> new WriteOutcome.Ambiguous("throttled " + config.backoff().maxAttempts()
                    + " times (" + what + ")", err);
            case SERVER_ERROR, NO_ANSWER -> new WriteOutcome.Ambiguous(url + " key '" + key + "': " + what, err);
            case REFUSED -> throw failure("write", key, err);
        };
    }

    private ListPage page(ListObjectsV2Response resp, String storePrefix) {
        List<String> keys = new ArrayList<>(resp.contents().size());
        for (S3Object o : resp.contents()) {
            keys.add(o.key().substring(storePrefix.length()));
        }
        boolean more = Boolean.TRUE.equals(resp.isTruncated()) && resp.nextContinuationToken() != null;
        return new ListPage(keys, more ? resp.nextContinuationToken() : null);
    }

    private <T> CompletableFuture<T> retried(Supplier<CompletableFuture<T>> attempt, Predicate<S3Failure> retryable) {
        return Retrying.run(config.backoff(), attempt, t -> {
            S3Failure f = S3Failure.of(t);
            boolean again = retryable.test(f);
            if (again) {
                LOG.atDebug().setMessage("s3.retry").addKeyValue("bucket", url.raw()).addKeyValue("failure", f)
                        .addKeyValue("error", S3Failure.describe(t)).log();
            }
            return again;
        }, Scheduler.on(timer), Retrying.ANY_THREAD);
    }

    private BucketException failure(String op, String key, Throwable err) {
        return new BucketException(op + " '" + key + "' in " + url + " failed: " + S3Failure.describe(err), Errors.unwrap(err));
    }

    private static String md5(byte[] bytes) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no MD5", e);
        }
    }

    private <T> CompletableFuture<T> checked(String key, Supplier<CompletableFuture<T>> op) {
        if (key == null || key.isEmpty() || key.startsWith("/")) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("invalid bucket key '" + key
                    + "': empty or starts with '/'"));
        }
        return op.get();
    }
}
