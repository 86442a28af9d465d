package dev.cellgate.core.store.probe;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ForwardingBucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A real store with one deliberate fault, each the way a real back end gets conditional writes
 * wrong. The probe must refuse every one of them.
 */
final class MisbehavingStore extends ForwardingBucketStore {
    enum Fault {
        /** Create-only writes overwrite an existing object. */
        CREATE_OVERWRITES,
        /** Compare-and-swap writes whenever the object exists, whatever the version. */
        CAS_IGNORES_VERSION,
        /** Compare-and-swap reads the version, then writes: correct alone, broken under concurrency
         * (what S3Proxy's filesystem back end does for If-Match). */
        CAS_CHECK_THEN_WRITE,
        /** Every write answers "ambiguous" (a store behind a proxy that times out). */
        WRITES_AMBIGUOUS,
        /** Nothing ever answers. */
        NEVER_ANSWERS
    }

    private final Fault fault;

    MisbehavingStore(BucketStore real, Fault fault) {
        super(real);
        this.fault = fault;
    }

    @Override
    public String url() {
        return inner.url() + "#" + fault;
    }

    @Override
    public CompletableFuture<Optional<StoredObject>> get(String key) {
        return fault == Fault.NEVER_ANSWERS ? new CompletableFuture<>() : inner.get(key);
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
        return switch (fault) {
            case CREATE_OVERWRITES -> inner.put(key, bytes);
            case WRITES_AMBIGUOUS -> ambiguous();
            case NEVER_ANSWERS -> new CompletableFuture<>();
            default -> inner.putIfAbsent(key, bytes);
        };
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
        return switch (fault) {
            case CAS_IGNORES_VERSION -> inner.get(key).thenCompose(cur -> cur.isPresent() ? inner.put(key, bytes)
                    : CompletableFuture.completedFuture(new WriteOutcome.Rejected("missing")));
            case CAS_CHECK_THEN_WRITE -> inner.get(key).thenCompose(cur -> {
                if (cur.isEmpty() || !cur.get().version().equals(version)) {
                    return CompletableFuture.completedFuture(new WriteOutcome.Rejected("version differs"));
                }
                // The gap between the check and the write: one round trip on a networked store.
                return CompletableFuture.supplyAsync(() -> null, CompletableFuture.delayedExecutor(5, TimeUnit.MILLISECONDS))
                        .thenCompose(x -> inner.put(key, bytes));
            });
            case WRITES_AMBIGUOUS -> ambiguous();
            case NEVER_ANSWERS -> new CompletableFuture<>();
            default -> inner.putIfVersion(key, bytes, version);
        };
    }

    @Override
    public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
        return fault == Fault.WRITES_AMBIGUOUS ? ambiguous() : inner.put(key, bytes);
    }

    @Override
    public CompletableFuture<Void> delete(String key) {
        return fault == Fault.NEVER_ANSWERS ? new CompletableFuture<>() : inner.delete(key);
    }

    private static CompletableFuture<WriteOutcome> ambiguous() {
        return CompletableFuture.completedFuture(new WriteOutcome.Ambiguous("simulated timeout", null));
    }
}
