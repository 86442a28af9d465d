package dev.cellgate.replicator.wal;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A real store (the file bucket) behind knobs: counts writes per kind of key, delays writes
 * (a bucket round trip), "crashes" (writes not yet forwarded are dropped and nothing gets through
 * any more, like a node killed mid-upload), answers ambiguously, or silently loses some keys.
 */
final class FaultyStore implements BucketStore {
    private final BucketStore inner;
    final AtomicInteger l0Puts = new AtomicInteger();
    final AtomicInteger puts = new AtomicInteger();
    final ConcurrentLinkedQueue<String> written = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean crashed = new AtomicBoolean();
    private volatile long delayMs;
    private volatile Predicate<String> lose = k -> false;
    private volatile Predicate<String> ambiguousAfterWrite = k -> false;
    private volatile Predicate<String> ambiguousWithoutWrite = k -> false;
    private final AtomicInteger ambiguousBudget = new AtomicInteger();
    private final AtomicInteger notWrittenBudget = new AtomicInteger(Integer.MAX_VALUE);
    private volatile Predicate<String> readTimesOut = k -> false;
    private volatile long readDelayMs;
    final AtomicInteger gets = new AtomicInteger();

    FaultyStore(BucketStore inner) {
        this.inner = inner;
    }

    FaultyStore delay(long ms) {
        this.delayMs = ms;
        return this;
    }

    /** Writes to matching keys answer "written" but never reach the bucket (a broken store). */
    FaultyStore lose(Predicate<String> keys) {
        this.lose = keys;
        return this;
    }

    /** The next {@code n} writes to matching keys land but answer ambiguously (a timeout after the write). */
    FaultyStore ambiguousAfterWrite(Predicate<String> keys, int n) {
        this.ambiguousAfterWrite = keys;
        ambiguousBudget.set(n);
        return this;
    }

    /** Writes to matching keys never land and answer ambiguously (the bucket is down for them). */
    FaultyStore ambiguousWithoutWrite(Predicate<String> keys) {
        return ambiguousWithoutWrite(keys, Integer.MAX_VALUE);
    }

    /** The next {@code n} writes to matching keys answer ambiguously and never reach the bucket (a lost request). */
    FaultyStore ambiguousWithoutWrite(Predicate<String> keys, int n) {
        notWrittenBudget.set(n);
        this.ambiguousWithoutWrite = keys;
        return this;
    }

    /** Every read answers after {@code ms} (a slow bucket). */
    FaultyStore delayReads(long ms) {
        this.readDelayMs = ms;
        return this;
    }

    /** Reads of matching keys fail as a read that timed out would (the bucket answered nothing in time). */
    FaultyStore readsTimeOut(Predicate<String> keys) {
        this.readTimesOut = keys;
        return this;
    }

    /** From now on nothing reaches the bucket: delayed writes still in flight are dropped. */
    void crash() {
        crashed.set(true);
    }

    boolean crashed() {
        return crashed.get();
    }

    @Override
    public String url() {
        return "faulty+" + inner.url();
    }

    @Override
    public CompletableFuture<Optional<StoredObject>> get(String key) {
        gets.incrementAndGet();
        if (readTimesOut.test(key)) {
            return CompletableFuture.failedFuture(new java.util.concurrent.TimeoutException("injected: no answer to the read of " + key));
        }
        if (readDelayMs > 0) {
            return CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(readDelayMs, TimeUnit.MILLISECONDS))
                    .thenCompose(x -> crashed.get() ? down() : inner.get(key));
        }
        return crashed.get() ? down() : inner.get(key);
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
        return write(key, () -> inner.putIfAbsent(key, bytes));
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
        return write(key, () -> inner.putIfVersion(key, bytes, version));
    }

    @Override
    public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
        return write(key, () -> inner.put(key, bytes));
    }

    @Override
    public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
        return crashed.get() ? down() : inner.list(prefix, cursor, limit);
    }

    @Override
    public CompletableFuture<Void> delete(String key) {
        return crashed.get() ? down() : inner.delete(key);
    }

    private CompletableFuture<WriteOutcome> write(String key, java.util.function.Supplier<CompletableFuture<WriteOutcome>> op) {
        puts.incrementAndGet();
        if (key.contains("/l0/")) {
            l0Puts.incrementAndGet();
        }
        CompletableFuture<Void> wait = delayMs == 0 ? CompletableFuture.completedFuture(null)
                : CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS));
        return wait.thenCompose(x -> {
            if (crashed.get()) {
                return down();
            }
            if (lose.test(key)) {
                return CompletableFuture.completedFuture(new WriteOutcome.Written("lost"));
            }
            if (ambiguousWithoutWrite.test(key) && notWrittenBudget.getAndDecrement() > 0) {
                return CompletableFuture.completedFuture(new WriteOutcome.Ambiguous("injected: not written", null));
            }
            boolean ambiguous = ambiguousAfterWrite.test(key) && ambiguousBudget.getAndDecrement() > 0;
            return op.get().thenApply(w -> {
                if (w.written()) {
                    written.add(key);
                }
                return ambiguous ? new WriteOutcome.Ambiguous("injected: written, answer lost", null) : w;
            });
        });
    }

    List<String> writtenKeys() {
        return List.copyOf(written);
    }

    private static <T> CompletableFuture<T> down() {
        return CompletableFuture.failedFuture(new java.io.IOException("injected: node crashed"));
    }
}
