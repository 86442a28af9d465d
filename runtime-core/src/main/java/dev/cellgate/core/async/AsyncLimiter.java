package dev.cellgate.core.async;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * At most N asynchronous operations at once; the rest wait in arrival order. The one concurrency
 * limiter of the code base: a long-lived one bounds a node's activations or warm pokes, a
 * short-lived one bounds a batch ({@link #forEach}, {@link #map}).
 *
 * <p>It has no thread of its own: a completion starts the next waiting operation. Starting is
 * trampolined (one drain loop at a time runs the queue), so operations that complete synchronously
 * never deepen the stack, however long the queue.
 */
public final class AsyncLimiter {
    private final int permits;
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    private int running;
    private int peak;
    /** A drain loop is running (on some thread): it starts whatever a completion made startable. */
    private boolean draining;

    public AsyncLimiter(int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("an async limiter needs at least one permit, got " + permits);
        }
        this.permits = permits;
    }

    /**
     * Runs {@code op} when a permit is free; the result carries its outcome. An {@code op} that throws
     * or returns no future is a failed operation, not a crash, and its permit is given back.
     */
    public <T> CompletableFuture<T> run(Supplier<CompletableFuture<T>> op) {
        CompletableFuture<T> out = new CompletableFuture<>();
        synchronized (this) {
            waiting.add(() -> start(op, out));
        }
        drain();
        return out;
    }

    private <T> void start(Supplier<CompletableFuture<T>> op, CompletableFuture<T> out) {
        Started.by(op, "a limited operation").whenComplete((v, e) -> {
            // The outcome first, then the permit: what the caller does on the outcome (map's
            // fail-fast mark) is in place before another operation can start.
            if (e != null) {
                out.completeExceptionally(e);
            } else {
                out.complete(v);
            }
            synchronized (this) {
                running--;
            }
            drain();
        });
    }

    private void drain() {
        synchronized (this) {
            if (draining) {
                return; // the running loop sees the freed permit or the new entry: no recursion
            }
            draining = true;
        }
        while (true) {
            Runnable next;
            synchronized (this) {
                // The check and the end of the loop are one step, so a permit freed meanwhile is never missed.
                if (running >= permits || waiting.isEmpty()) {
                    draining = false;
                    return;
                }
                next = waiting.poll();
                running++;
                peak = Math.max(peak, running);
            }
            next.run();
        }
    }

    public synchronized int running() {
        return running;
    }

    public synchronized int queued() {
        return waiting.size();
    }

    /** The most operations that ever ran at once. */
    public synchronized int peak() {
        return peak;
    }

    // ------------------------------------------------------------------ batches

    /** How a batch ended: a failure is an action whose future completed exceptionally (or that threw). */
    public record Tally(int succeeded, List<Throwable> failures) {
        public Tally {
            failures = List.copyOf(failures);
        }

        public int failed() {
            return failures.size();
        }
    }

    /**
     * Runs {@code action} over every item, at most {@code limit} at once. Never completes
     * exceptionally: each item runs, and failures are counted in the {@link Tally} (for sweeps where
     * one bad item must not stop the rest).
     */
    public static <T> CompletableFuture<Tally> forEach(List<T> items, int limit, Function<T, CompletableFuture<?>> action) {
        AsyncLimiter limiter = new AsyncLimiter(limit);
        List<CompletableFuture<Throwable>> ends = new ArrayList<>(items.size());
        for (T item : items) {
            ends.add(limiter.run(() -> action.apply(item)).handle((v, e) -> e));
        }
        return CompletableFuture.allOf(ends.toArray(CompletableFuture[]::new)).thenApply(x -> {
            List<Throwable> failures = new ArrayList<>();
            for (CompletableFuture<Throwable> end : ends) {
                Throwable e = end.join();
                if (e != null) {
                    failures.add(e);
                }
            }
            return new Tally(items.size() - failures.size(), failures);
        });
    }

    /**
     * Maps every item through {@code step}, at most {@code limit} at once; the results keep the
     * items' order. Fails fast: after the first failure no further item starts (each fails with that
     * failure), and the result fails once the steps already running have ended.
     */
    public static <A, B> CompletableFuture<List<B>> map(List<A> items, int limit, Function<A, CompletableFuture<B>> step) {
        AsyncLimiter limiter = new AsyncLimiter(limit);
        AtomicReference<Throwable> first = new AtomicReference<>();
        List<CompletableFuture<B>> results = new ArrayList<>(items.size());
        for (A item : items) {
            results.add(limiter.run(() -> {
                Throwable failed = first.get();
                return failed != null ? CompletableFuture.<B>failedFuture(failed) : step.apply(item);
            }).whenComplete((v, e) -> {
                if (e != null) {
                    first.compareAndSet(null, e); // set before the limiter starts the next item
                }
            }));
        }
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
                .thenApply(x -> results.stream().map(CompletableFuture::join).toList());
    }
}
