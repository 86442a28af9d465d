package dev.cellgate.store.gcs;

import com.google.api.client.http.HttpResponse;
import com.google.api.client.http.HttpResponseException;
import com.google.api.gax.paging.Page;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobListOption;
import com.google.cloud.storage.Storage.BlobTargetOption;
import com.google.cloud.storage.StorageException;
import dev.cellgate.core.async.Retrying;
import dev.cellgate.core.observe.Errors;
import dev.cellgate.core.spi.bucket.BucketException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.BucketUrl;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import dev.cellgate.core.time.Scheduler;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bucket on Google Cloud Storage. Create-only is {@code ifGenerationMatch=0}
 * ({@code doesNotExist}), compare-and-swap is {@code ifGenerationMatch=<generation>}; the version
 * is the object's generation, which GCS changes on every write.
 *
 * <p>The client library is blocking: calls run on this store's own bounded thread pool. Retries
 * are the shared policy ({@link GcsStoreConfig#backoff}, run by {@link Retrying}): between attempts
 * no pool thread sleeps, the store's timer starts the next one.
 */
final class GcsBucketStore implements BucketStore {
    private static final Logger LOG = LoggerFactory.getLogger(GcsBucketStore.class);
    private static final int THREADS = 32;
    private static final AtomicInteger POOLS = new AtomicInteger();

    private final GcsStoreConfig config;
    private final BucketUrl url;
    private final Storage storage;
    /** The JSON API client under {@link #storage}: same transport, host and credentials. */
    private final com.google.api.services.storage.Storage apiary;
    private final ExecutorService io;
    /** Starts retries after their backoff; shut down with the store. */
    private final ScheduledExecutorService timer;

    GcsBucketStore(GcsStoreConfig config) {
        this.config = config;
        this.url = config.url();
        this.storage = GcsClients.build(config);
        this.apiary = GcsClients.jsonApi(storage);
        int pool = POOLS.incrementAndGet();
        this.io = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "gcs-bucket-" + pool);
            t.setDaemon(true);
            return t;
        });
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "gcs-retry-" + pool);
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
        return checked(key, () -> retried("read", key, GcsFailure::retryableRead, () -> readOnce(key)));
    }

    /**
     * One media download; the generation comes from the same response ({@code x-goog-generation}),
     * so bytes and version always belong together. (Metadata first, then the bytes of that
     * generation, is two requests: under a busy CAS loop the object changes in between again and
     * again, measured with the contract's 8-worker counter.)
     */
    private Optional<StoredObject> readOnce(String key) {
        HttpResponse r;
        try {
            r = apiary.objects().get(url.bucket(), url.fullKey(key)).executeMedia();
        } catch (HttpResponseException e) {
            if (e.getStatusCode() == 404) {
                return Optional.empty();
            }
            throw new StorageException(e.getStatusCode(), e.getStatusMessage() + ": " + e.getContent(), e);
        } catch (IOException e) {
            throw new StorageException(0, e.toString(), e);
        }
        try {
            String generation = r.getHeaders().getFirstHeaderStringValue("x-goog-generation");
            if (generation == null) {
                throw new BucketException("read '" + key + "' in " + url + ": the download carried no x-goog-generation header");
            }
            return Optional.of(new StoredObject(r.getContent().readAllBytes(), generation));
        } catch (IOException e) {
            throw new StorageException(0, e.toString(), e);
        } finally {
            disconnect(r);
        }
    }

    private static void disconnect(HttpResponse r) {
        try {
            r.disconnect();
        } catch (IOException e) {
            // the body was read or the read failed already; nothing left to release
        }
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
        return write(key, bytes, BlobInfo.newBuilder(blobId(key)).build(), true, BlobTargetOption.doesNotExist());
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
        long generation;
        try {
            generation = Long.parseLong(version);
        } catch (NumberFormatException | NullPointerException e) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("compare-and-swap of '" + key + "' in " + url
                    + ": '" + version + "' is not a version this store handed out (a GCS generation)"));
        }
        BlobInfo info = BlobInfo.newBuilder(BlobId.of(url.bucket(), url.fullKey(key), generation)).build();
        return write(key, bytes, info, true, BlobTargetOption.generationMatch());
    }

    @Override
    public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
        return write(key, bytes, BlobInfo.newBuilder(blobId(key)).build(), false);
    }

    @Override
    public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
        if (limit < 1) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("list limit must be positive"));
        }
        String storePrefix = url.prefix().isEmpty() ? "" : url.prefix() + "/";
        List<BlobListOption> opts = new ArrayList<>(List.of(BlobListOption.prefix(storePrefix + prefix),
                BlobListOption.pageSize(limit)));
        if (cursor != null) {
            opts.add(BlobListOption.pageToken(cursor));
        }
        return retried("list", prefix, GcsFailure::retryableRead, () -> {
            Page<Blob> page = storage.list(url.bucket(), opts.toArray(BlobListOption[]::new));
            List<String> keys = new ArrayList<>();
            for (Blob b : page.getValues()) { // this page only: iterateAll() would fetch every page
                keys.add(b.getName().substring(storePrefix.length()));
            }
            String next = page.getNextPageToken();
            return new ListPage(keys, next == null || next.isEmpty() ? null : next);
        });
    }

    @Override
    public CompletableFuture<Void> delete(String key) {
        return checked(key, () -> retried("delete", key, GcsFailure::retryableRead, () -> storage.delete(blobId(key)))
                .thenApply(existed -> null)); // false (nothing to delete) is a success too
    }

    @Override
    public void close() {
        io.shutdown();
        timer.shutdownNow();
        try {
            storage.close();
        } catch (Exception e) {
            LOG.atWarn().setMessage("gcs.close_failed").addKeyValue("bucket", url.raw()).addKeyValue("error", e.toString()).log();
        }
    }

    // ------------------------------------------------------------------ internals

    private CompletableFuture<WriteOutcome> write(String key, byte[] bytes, BlobInfo info, boolean conditional,
                                                  BlobTargetOption... options) {
        AtomicBoolean earlierMayHaveApplied = new AtomicBoolean();
        return checked(key, () -> retried("write", key, f -> {
            if (f.retryableWrite() && f.mayHaveBeenApplied()) {
                earlierMayHaveApplied.set(true);
            }
            return f.retryableWrite();
        }, () -> storage.create(info, bytes, options)).handle((b, err) -> {
            if (err == null) {
                // the object's update time is stamped by the server's clock (SPEC §20 compares it with ours)
                OffsetDateTime updated = b.getUpdateTimeOffsetDateTime();
                return updated == null ? new WriteOutcome.Written(Long.toString(b.getGeneration()))
                        : WriteOutcome.Written.at(Long.toString(b.getGeneration()), updated.toInstant().toEpochMilli());
            }
            if (Errors.unwrap(err) instanceof StorageException e) {
                return outcome(key, e, conditional, earlierMayHaveApplied.get());
            }
            throw new CompletionException(Errors.unwrap(err));
        }));
    }

    private WriteOutcome outcome(String key, StorageException e, boolean conditional, boolean earlierMayHaveApplied) {
        GcsFailure f = GcsFailure.of(e);
        String what = GcsFailure.describe(e);
        if (earlierMayHaveApplied && f == GcsFailure.PRECONDITION_FAILED) {
            return new WriteOutcome.Ambiguous(url + " key '" + key + "': an earlier attempt was answered with a server error"
                    + " and may have been applied; the retry then got " + what, e);
        }
        return switch (f) {
            case PRECONDITION_FAILED -> new WriteOutcome.Rejected("precondition failed (" + what + ")");
            case NOT_FOUND -> throw failure("write", key, e); // the bucket itself is missing
            case THROTTLED -> new WriteOutcome.Ambiguous("throttled " + config.backoff().maxAttempts() + " times (" + what + ")", e);
            case SERVER_ERROR, NO_ANSWER -> new WriteOutcome.Ambiguous(url + " key '" + key + "': " + what, e);
            case REFUSED -> throw failure("write", key, e);
        };
    }

    /**
     * Runs the blocking {@code call} on the pool, again after a GCS failure that {@code retryable}
     * accepts (any other exception ends it), with the store's backoff between attempts.
     */
    private <T> CompletableFuture<T> retried(String op, String key, Predicate<GcsFailure> retryable, Supplier<T> call) {
        return Retrying.run(config.backoff(), () -> CompletableFuture.supplyAsync(call, io), t -> {
            if (!(t instanceof StorageException e)) {
                return false;
            }
            GcsFailure f = GcsFailure.of(e);
            boolean again = retryable.test(f);
            if (again) {
                LOG.atDebug().setMessage("gcs.retry").addKeyValue("bucket", url.raw()).addKeyValue("op", op)
                        .addKeyValue("key", key).addKeyValue("failure", f).log();
            }
            return again;
        }, Scheduler.on(timer), Retrying.ANY_THREAD);
    }

    /** {@code op} on a valid key; a GCS failure it ends with becomes a {@link BucketException} naming the key. */
    private <T> CompletableFuture<T> checked(String key, Supplier<CompletableFuture<T>> op) {
        if (key == null || key.isEmpty() || key.startsWith("/")) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("invalid bucket key '" + key
                    + "': empty or starts with '/'"));
        }
        return op.get().handle((v, err) -> {
            if (err == null) {
                return v;
            }
            Throwable c = Errors.unwrap(err);
            throw c instanceof StorageException e ? failure("access", key, e) : new CompletionException(c);
        });
    }

    private BucketException failure(String op, String key, StorageException e) {
        return new BucketException(op + " '" + key + "' in " + url + " failed: " + GcsFailure.describe(e), e);
    }

    private BlobId blobId(String key) {
        return BlobId.of(url.bucket(), url.fullKey(key));
    }
}
