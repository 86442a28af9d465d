package dev.cellgate.core.time;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task after a delay. Fleet code schedules only through this (never its own threads),
 * so a seeded simulator can run the real protocol code on virtual time.
 */
public interface Scheduler {

    /** Runs {@code task} after {@code delayMs}; the returned handle cancels it. */
    Cancellable after(long delayMs, Runnable task);

    @FunctionalInterface
    interface Cancellable {
        void cancel();
    }

    /** A real scheduler on one daemon thread; tasks must be short (hand work to other executors). */
    static Scheduler system(String threadName) {
        return on(Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        }));
    }

    /** Schedules on {@code ses}, which its owner shuts down (a store's timer, closed with the store). */
    static Scheduler on(ScheduledExecutorService ses) {
        return (delayMs, task) -> {
            ScheduledFuture<?> f = ses.schedule(task, Math.max(0, delayMs), TimeUnit.MILLISECONDS);
            return () -> f.cancel(false);
        };
    }

    /**
     * The JDK's shared delayer ({@link CompletableFuture#delayedExecutor}): for code without a
     * scheduler of its own and a lifecycle to close one (a CLI command, a start-up step). The task
     * runs on the common pool.
     */
    static Scheduler shared() {
        return (delayMs, task) -> {
            CompletableFuture<Void> f = CompletableFuture.runAsync(task,
                    CompletableFuture.delayedExecutor(Math.max(0, delayMs), TimeUnit.MILLISECONDS));
            return () -> f.cancel(false);
        };
    }
}
