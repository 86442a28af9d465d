package dev.cellgate.core.cell;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** At most N asynchronous operations at once; the rest wait in arrival order. Tracks the peak. */
public final class AsyncLimiter {
    private final int permits;
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    private int running;
    private int peak;

    public AsyncLimiter(int permits) {
        this.permits = permits;
    }

    public <T> CompletableFuture<T> run(Supplier<CompletableFuture<T>> op) {
        CompletableFuture<T> out = new CompletableFuture<>();
        Runnable start = () -> {
            CompletableFuture<T> f;
            try {
                f = op.get();
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((v, e) -> {
                release();
                if (e != null) {
                    out.completeExceptionally(e);
                } else {
                    out.complete(v);
                }
            });
        };
        boolean now;
        synchronized (this) {
            now = running < permits;
            if (now) {
                running++;
                peak = Math.max(peak, running);
            } else {
                waiting.add(start);
            }
        }
        if (now) {
            start.run();
        }
        return out;
    }

    private void release() {
        Runnable next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                running--;
            }
        }
        if (next != null) {
            next.run();
        }
    }

    synchronized int running() {
        return running;
    }

    synchronized int queued() {
        return waiting.size();
    }

    synchronized int peak() {
        return peak;
    }
}
