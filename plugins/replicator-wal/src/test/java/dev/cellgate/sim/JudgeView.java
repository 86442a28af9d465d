package dev.cellgate.sim;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The end-of-run judge's view of the bucket: reads and listings answered at once, without faults,
 * outside the event loop, so the real restorer can say what a restore would read now. It never writes.
 */
final class JudgeView implements BucketStore {
    private static final SimProcess JUDGE = new SimProcess("judge", "-");
    private final SimBucket bucket;

    JudgeView(SimBucket bucket) {
        this.bucket = bucket;
    }

    @Override
    public String url() {
        return "sim://bucket (judge)";
    }

    @Override
    public CompletableFuture<Optional<StoredObject>> get(String key) {
        return CompletableFuture.completedFuture(bucket.read(key, JUDGE, "judge"));
    }

    @Override
    public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
        return CompletableFuture.completedFuture(bucket.list(prefix, cursor, limit));
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
        throw new UnsupportedOperationException("the judge only reads");
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
        throw new UnsupportedOperationException("the judge only reads");
    }

    @Override
    public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
        throw new UnsupportedOperationException("the judge only reads");
    }

    @Override
    public CompletableFuture<Void> delete(String key) {
        throw new UnsupportedOperationException("the judge only reads");
    }
}
