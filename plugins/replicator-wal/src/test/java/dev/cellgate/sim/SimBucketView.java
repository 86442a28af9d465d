package dev.cellgate.sim;

import dev.cellgate.core.spi.bucket.BucketException;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.ListPage;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.core.spi.bucket.WriteOutcome;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One process's connection to the simulated bucket. A call travels for a while, happens at the
 * store in one instant, and its answer travels back to the process, unless: the store throttles
 * (503, nothing done), the request is lost (nothing done, the caller times out: ambiguous), the
 * answer is lost (done, the caller times out: ambiguous), or the process crashes before the
 * answer arrives (it never arrives). A crashed process's calls still land if already sent.
 */
final class SimBucketView implements BucketStore {
    private final EventLoop loop;
    private final SimBucket bucket;
    private final Faults faults;
    private final SimProcess process;
    private final SimClock clock;
    private final Runnable crash;
    /** Which part of the process calls (e.g. "gc"): the checker judges a delete against the same part's read. */
    private final String component;

    SimBucketView(EventLoop loop, SimBucket bucket, Faults faults, SimProcess process, SimClock clock, Runnable crash,
                  String component) {
        this.component = component;
        this.loop = loop;
        this.bucket = bucket;
        this.faults = faults;
        this.process = process;
        this.clock = clock;
        this.crash = crash;
    }

    @Override
    public String url() {
        return "sim://bucket";
    }

    @Override
    public CompletableFuture<Optional<StoredObject>> get(String key) {
        return call(() -> bucket.read(key, process, component));
    }

    @Override
    public CompletableFuture<ListPage> list(String prefix, String cursor, int limit) {
        return call(() -> bucket.list(prefix, cursor, limit));
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfAbsent(String key, byte[] bytes) {
        long issued = clock.nowMs();
        long issuedAt = loop.now();
        return write(() -> bucket.putIfAbsent(key, bytes, process, issued, issuedAt));
    }

    @Override
    public CompletableFuture<WriteOutcome> putIfVersion(String key, byte[] bytes, String version) {
        long issued = clock.nowMs();
        long issuedAt = loop.now();
        return write(() -> bucket.putIfVersion(key, bytes, version, process, issued, issuedAt));
    }

    @Override
    public CompletableFuture<WriteOutcome> put(String key, byte[] bytes) {
        long issued = clock.nowMs();
        long issuedAt = loop.now();
        return write(() -> bucket.put(key, bytes, process, issued, issuedAt));
    }

    @Override
    public CompletableFuture<Void> delete(String key) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        if (!process.alive) {
            return f;
        }
        loop.after(faults.latency(), null, () -> {
            if (faults.throttled(loop.now())) {
                answer(() -> f.completeExceptionally(new BucketException("503 SlowDown deleting " + key)), faults.latency());
                return;
            }
            if (faults.requestLost()) {
                answer(() -> f.completeExceptionally(new BucketException("timeout deleting " + key)), faults.timeout());
                return;
            }
            bucket.delete(key, process, component);
            if (faults.responseLost()) {
                answer(() -> f.completeExceptionally(new BucketException("timeout deleting " + key)), faults.timeout());
            } else {
                answer(() -> f.complete(null), faults.latency());
            }
        });
        return f;
    }

    private <T> CompletableFuture<T> call(Supplier<T> atStore) {
        CompletableFuture<T> f = new CompletableFuture<>();
        if (!process.alive) {
            return f; // a dead process issues nothing (code still unwinding in its last event)
        }
        loop.after(faults.latency(), null, () -> {
            if (faults.throttled(loop.now())) {
                answer(() -> f.completeExceptionally(new BucketException("503 SlowDown")), faults.latency());
            } else if (faults.readFails()) {
                answer(() -> f.completeExceptionally(new BucketException("timeout")), faults.timeout());
            } else {
                T v = atStore.get();
                answer(() -> f.complete(v), faults.latency());
            }
        });
        return f;
    }

    private CompletableFuture<WriteOutcome> write(Supplier<WriteOutcome> atStore) {
        CompletableFuture<WriteOutcome> f = new CompletableFuture<>();
        if (!process.alive) {
            return f;
        }
        loop.after(faults.latency(), null, () -> {
            if (faults.throttled(loop.now())) {
                answer(() -> f.complete(new WriteOutcome.Ambiguous("503 SlowDown", null)), faults.latency());
                return;
            }
            if (faults.requestLost()) {
                answer(() -> f.complete(new WriteOutcome.Ambiguous("timeout (request lost)", null)), faults.timeout());
                return;
            }
            WriteOutcome o = atStore.get();
            if (faults.responseLost()) {
                answer(() -> f.complete(new WriteOutcome.Ambiguous("timeout (answer lost)", null)), faults.timeout());
            } else {
                answer(() -> f.complete(o), faults.latency());
            }
        });
        return f;
    }

    /** Delivers an answer to the process after {@code delay}, unless it crashed or crashes right now. */
    private void answer(Runnable complete, long delay) {
        loop.after(delay, process, () -> {
            if (faults.crashAtAwait()) {
                crash.run();
                return;
            }
            complete.run();
        });
    }
}
